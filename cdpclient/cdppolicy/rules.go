package cdppolicy

import "strings"

// pageDomains are the domains whose methods act on one page's own session (its
// documents, its renderer, its view): in normal mode they pass, except for
// refusedMethods. The method lists are Chromium 156's; a method a newer
// browser adds is refused until it is named here.
var pageDomains = map[string]string{
	"Accessibility":        "disable enable getPartialAXTree getFullAXTree getRootAXNode getAXNodeAndAncestors getChildAXNodes queryAXTree",
	"Ads":                  "getAdMetrics getAdScripts",
	"Animation":            "disable enable getCurrentTime getPlaybackRate releaseAnimations resolveAnimation seekAnimations setPaused setPlaybackRate setTiming",
	"Audits":               "getEncodedResponse disable enable checkFormsIssues",
	"Autofill":             "trigger setAddresses disable enable",
	"BackgroundService":    "startObserving stopObserving setRecording clearEvents",
	"BluetoothEmulation":   "enable setSimulatedCentralState disable simulatePreconnectedPeripheral simulateAdvertisement simulateGATTOperationResponse simulateCharacteristicOperationResponse simulateDescriptorOperationResponse addService removeService addCharacteristic removeCharacteristic addDescriptor removeDescriptor simulateGATTDisconnection",
	"CSS":                  "addRule collectClassNames createStyleSheet disable enable forcePseudoState forceStartingStyle getBackgroundColors getComputedStyleForNode resolveValues getLonghandProperties getInlineStylesForNode getAnimatedStylesForNode getMatchedStylesForNode getEnvironmentVariables getMediaQueries getPlatformFontsForNode getStyleSheetText getLayersForNode getLocationForSelector trackComputedStyleUpdatesForNode trackComputedStyleUpdates takeComputedStyleUpdates setEffectivePropertyValueForNode setPropertyRulePropertyName setKeyframeKey setMediaText setContainerQueryText setContainerQueryConditionText setSupportsText setNavigationText setScopeText setRuleSelector setStyleSheetText setStyleTexts startRuleUsageTracking stopRuleUsageTracking takeCoverageDelta setLocalFontsEnabled",
	"CacheStorage":         "deleteCache deleteEntry requestCacheNames requestCachedResponse requestEntries",
	"Console":              "clearMessages disable enable",
	"CrashReportContext":   "getEntries",
	"DOM":                  "collectClassNamesFromSubtree copyTo describeNode scrollIntoViewIfNeeded disable discardSearchResults enable focus getAttributes getBoxModel getContentQuads getDocument getFlattenedDocument getNodesForSubtreeByStyle getNodeForLocation getOuterHTML getRelayoutBoundary getSearchResults hideHighlight highlightNode highlightRect markUndoableState moveTo performSearch pushNodeByPathToFrontend pushNodesByBackendIdsToFrontend querySelector querySelectorAll getTopLayerElements getElementByRelation redo removeAttribute removeNode requestChildNodes requestNode resolveNode setAttributeValue setAttributesAsText setFileInputFiles setNodeStackTracesEnabled getNodeStackTraces getFileInfo getDetachedDomNodes setInspectedNode setNodeName setNodeValue setOuterHTML undo getFrameOwner getContainerForNode getQueryingDescendantsForContainer getAnchorElement forceShowPopover getImplicitAnchorCandidates forceShowInterest setTextMarker clearTextMarkers",
	"DOMDebugger":          "getEventListeners removeDOMBreakpoint removeEventListenerBreakpoint removeInstrumentationBreakpoint removeXHRBreakpoint setBreakOnCSPViolation setDOMBreakpoint setEventListenerBreakpoint setInstrumentationBreakpoint setXHRBreakpoint",
	"DOMSnapshot":          "disable enable getSnapshot captureSnapshot",
	"DOMStorage":           "clear disable enable getDOMStorageItems removeDOMStorageItem setDOMStorageItem",
	"Debugger":             "continueToLocation disable enable evaluateOnCallFrame getPossibleBreakpoints getScriptSource disassembleWasmModule nextWasmDisassemblyChunk getWasmBytecode getStackTrace pause pauseOnAsyncCall removeBreakpoint restartFrame resume searchInContent setAsyncCallStackDepth setBlackboxExecutionContexts setBlackboxPatterns setBlackboxedRanges setBreakpoint setInstrumentationBreakpoint setBreakpointByUrl setBreakpointOnFunctionCall setBreakpointsActive setPauseOnExceptions setReturnValue setScriptSource setSkipAllPauses setVariableValue stepInto stepOut stepOver",
	"DeviceAccess":         "enable disable selectPrompt cancelPrompt",
	"DeviceOrientation":    "clearDeviceOrientationOverride setDeviceOrientationOverride",
	"DigitalCredentials":   "setVirtualWalletBehavior",
	"Emulation":            "canEmulate clearDeviceMetricsOverride clearGeolocationOverride resetPageScaleFactor setFocusEmulationEnabled setAutoDarkModeOverride setCPUThrottlingRate setDefaultBackgroundColorOverride setSafeAreaInsetsOverride setVirtualKeyboardGeometryOverride setDeviceMetricsOverride setDevicePostureOverride clearDevicePostureOverride setDisplayFeaturesOverride clearDisplayFeaturesOverride setScrollbarsHidden setDocumentCookieDisabled setEmitTouchEventsForMouse setEmulatedMedia setEmulatedVisionDeficiency setEmulatedOSTextScale setGeolocationOverride getOverriddenSensorInformation setSensorOverrideEnabled setSensorOverrideReadings setPressureSourceOverrideEnabled setPressureStateOverride setIdleOverride clearIdleOverride setNavigatorOverrides setPageScaleFactor setScriptExecutionDisabled setTouchEmulationEnabled setVirtualTimePolicy setLocaleOverride setTimezoneOverride setVisibleSize setDisabledImageTypes setDataSaverOverride setHardwareConcurrencyOverride setCPUPerformanceOverride setUserAgentOverride setAutomationOverride setSmallViewportHeightDifferenceOverride getScreenInfos addScreen updateScreen removeScreen setPrimaryScreen",
	"EventBreakpoints":     "setInstrumentationBreakpoint removeInstrumentationBreakpoint disable",
	"FedCm":                "enable disable selectAccount clickDialogButton openUrl dismissDialog resetCooldown",
	"FileSystem":           "getDirectory",
	"FindInPage":           "findFirst findNext findPrev stop",
	"HeadlessExperimental": "beginFrame disable enable",
	"HeapProfiler":         "addInspectedHeapObject collectGarbage disable enable getHeapObjectId getObjectByHeapObjectId getSamplingProfile startSampling startTrackingHeapObjects stopSampling stopTrackingHeapObjects takeHeapSnapshot",
	"IO":                   "close read resolveBlob",
	"IndexedDB":            "clearObjectStore deleteDatabase deleteObjectStoreEntries disable enable requestData getMetadata requestDatabase requestDatabaseNames",
	"Input":                "dispatchDragEvent dispatchKeyEvent insertText imeSetComposition dispatchMouseEvent dispatchTouchEvent cancelDragging emulateTouchFromMouseEvent setIgnoreInputEvents setInterceptDrags synthesizePinchGesture synthesizeScrollGesture synthesizeTapGesture",
	"Inspector":            "disable enable",
	"LayerTree":            "compositingReasons disable enable loadSnapshot makeSnapshot profileSnapshot releaseSnapshot replaySnapshot snapshotCommandLog",
	"Log":                  "clear disable enable startViolationsReport stopViolationsReport",
	"Media":                "enable disable",
	"Memory":               "getDOMCounters getDOMCountersForLeakDetection prepareForLeakDetection forciblyPurgeJavaScriptMemory setPressureNotificationsSuppressed simulatePressureNotification startSampling stopSampling getAllTimeSamplingProfile getBrowserSamplingProfile getSamplingProfile",
	"Network":              "canClearBrowserCache canClearBrowserCookies canEmulateNetworkConditions clearBrowserCache clearBrowserCookies deleteCookies disable emulateNetworkConditions emulateNetworkConditionsByRule overrideNetworkState enable configureDurableMessages getAllCookies getCertificate getCookies getResponseBody getRequestPostData replayXHR searchInResponseBody setBlockedURLs setBypassServiceWorker setCacheDisabled setCookie setCookies setExtraHTTPHeaders setAttachDebugStack setUserAgentOverride streamResourceContent getSecurityIsolationStatus enableReportingApi enableDeviceBoundSessions deleteDeviceBoundSession fetchSchemefulSite loadNetworkResource setCookieControls",
	"Overlay":              "disable enable getHighlightObjectForTest getGridHighlightObjectsForTest getSourceOrderHighlightObjectForTest hideHighlight highlightFrame highlightNode highlightQuad highlightRect highlightSourceOrder setInspectMode setShowAdHighlights setPausedInDebuggerMessage setShowDebugBorders setShowFPSCounter setShowGridOverlays setShowFlexOverlays setShowScrollSnapOverlays setShowContainerQueryOverlays setShowInspectedElementAnchor setShowPaintRects setShowLayoutShiftRegions setShowScrollBottleneckRects setShowHitTestBorders setShowWebVitals setShowViewportSizeOnResize setShowHinge setShowDisplayCutout setShowIsolatedElements setShowWindowControlsOverlay",
	"Page":                 "addScriptToEvaluateOnLoad addScriptToEvaluateOnNewDocument bringToFront captureScreenshot captureSnapshot clearDeviceMetricsOverride clearDeviceOrientationOverride clearGeolocationOverride createIsolatedWorld deleteCookie disable enable getAppManifest getInstallabilityErrors getManifestIcons getAppId getSubApps getSiblingSubApps getAdScriptAncestry getFrameTree getLayoutMetrics getNavigationHistory resetNavigationHistory getResourceContent getResourceTree handleJavaScriptDialog navigate navigateToHistoryEntry printToPDF reload removeScriptToEvaluateOnLoad removeScriptToEvaluateOnNewDocument screencastFrameAck searchInResource setAdBlockingEnabled setBypassCSP getPermissionsPolicyState getOriginTrials setDeviceMetricsOverride setDeviceOrientationOverride setFontFamilies setFontSizes setDocumentContent setDownloadBehavior setGeolocationOverride setLifecycleEventsEnabled setTouchEmulationEnabled startScreencast startScreenRecording stopScreenRecording stopLoading crash close setWebLifecycleState stopScreencast produceCompilationCache addCompilationCache clearCompilationCache setSPCTransactionMode setRPHRegistrationMode generateTestReport waitForDebugger setInterceptFileChooserDialog setPrerenderingAllowed getAnnotatedPageContent",
	"Performance":          "disable enable setTimeDomain getMetrics",
	"PerformanceTimeline":  "enable",
	"Preload":              "enable disable",
	"Profiler":             "disable enable getBestEffortCoverage setSamplingInterval start startPreciseCoverage stop stopPreciseCoverage takePreciseCoverage",
	"Runtime":              "awaitPromise callFunctionOn compileScript disable discardConsoleEntries enable evaluate getIsolateId getHeapUsage getProperties globalLexicalScopeNames queryObjects releaseObject releaseObjectGroup runIfWaitingForDebugger runScript setAsyncCallStackDepth setCustomObjectFormatterEnabled setMaxCallStackSizeToCapture terminateExecution addBinding removeBinding getExceptionDetails",
	"Security":             "disable enable setIgnoreCertificateErrors handleCertificateError setOverrideCertificateErrors",
	"ServiceWorker":        "deliverPushMessage disable dispatchSyncEvent dispatchPeriodicSyncEvent enable setForceUpdateOnPageLoad skipWaiting startWorker stopAllWorkers stopWorker unregister updateRegistration",
	"SmartCardEmulation":   "enable disable reportEstablishContextResult reportReleaseContextResult reportListReadersResult reportGetStatusChangeResult reportBeginTransactionResult reportPlainResult reportConnectResult reportDataResult reportStatusResult reportError",
	"Storage":              "getStorageKeyForFrame getStorageKey clearDataForOrigin clearDataForStorageKey getCookies setCookies clearCookies getUsageAndQuota overrideQuotaForOrigin trackCacheStorageForOrigin trackCacheStorageForStorageKey trackIndexedDBForOrigin trackIndexedDBForStorageKey untrackCacheStorageForOrigin untrackCacheStorageForStorageKey untrackIndexedDBForOrigin untrackIndexedDBForStorageKey getTrustTokens clearTrustTokens getPrivateVerificationTokens getPrivateVerificationTokensIssuerConfigs clearPrivateVerificationTokens deletePrivateVerificationToken setPrivateVerificationTokensTracking setStorageBucketTracking deleteStorageBucket runBounceTrackingMitigations",
	"WebAudio":             "enable disable getRealtimeData",
	"WebAuthn":             "enable disable addVirtualAuthenticator setResponseOverrideBits removeVirtualAuthenticator addCredential getCredential getCredentials removeCredential clearCredentials setUserVerified setAutomaticPresenceSimulation setCredentialProperties",
	"WebMCP":               "enable disable invokeTool cancelInvocation",
}

// refusedMethods are methods of page domains that reach beyond the page or
// switch off what cdpmcp relies on, with the reason the caller is told.
var refusedMethods = map[string]string{
	"Network.loadNetworkResource":                       "it loads a URL from the browser itself, outside the page's requests",
	"Network.disable":                                   "cdpmcp relies on the Network domain for feedback and logs",
	"Page.disable":                                      "cdpmcp relies on the Page domain for navigation and feedback",
	"Runtime.disable":                                   "cdpmcp relies on the Runtime domain for the page model",
	"Log.disable":                                       "cdpmcp relies on the Log domain for the console log",
	"WebMCP.disable":                                    "cdpmcp relies on the WebMCP domain to hear the tools pages register (pageTools)",
	"Page.setLifecycleEventsEnabled":                    "cdpmcp relies on lifecycle events to know when a page has loaded",
	"Network.setCookieControls":                         "it changes the browser's third-party cookie settings",
	"Page.setBypassCSP":                                 "it switches off the page's Content Security Policy",
	"Page.setDownloadBehavior":                          "cdpmcp decides where downloads go (a folder per session)",
	"Page.setSPCTransactionMode":                        "it makes the browser answer payment prompts on its own",
	"Page.setRPHRegistrationMode":                       "it makes the browser register protocol handlers on its own",
	"Page.waitForDebugger":                              "it pauses the page for a debugger cdpmcp does not run",
	"Page.startScreenRecording":                         "it records the screen outside the page",
	"Page.stopScreenRecording":                          "it records the screen outside the page",
	"Security.setIgnoreCertificateErrors":               "it switches off certificate checks",
	"Security.handleCertificateError":                   "it overrides certificate checks",
	"Security.setOverrideCertificateErrors":             "it overrides certificate checks",
	"Storage.runBounceTrackingMitigations":              "it acts on the whole browser profile",
	"Storage.getTrustTokens":                            "it reads the whole browser profile's tokens",
	"Storage.clearTrustTokens":                          "it acts on the whole browser profile",
	"Storage.getPrivateVerificationTokens":              "it reads the whole browser profile's tokens",
	"Storage.getPrivateVerificationTokensIssuerConfigs": "it reads the whole browser profile's tokens",
	"Storage.clearPrivateVerificationTokens":            "it acts on the whole browser profile",
	"Storage.deletePrivateVerificationToken":            "it acts on the whole browser profile",
	"Storage.setPrivateVerificationTokensTracking":      "it acts on the whole browser profile",
	"FedCm.openUrl":                                     "it opens a URL outside the page",
	"DeviceAccess.selectPrompt":                         "it hands the page a real device of this machine",
	"Memory.getBrowserSamplingProfile":                  "it profiles the whole browser, other sessions included",
	"Target.exposeDevToolsProtocol":                     "it would hand the page the DevTools protocol itself",
	"Target.setAutoAttach":                              "cdpmcp's origin guard and page tracking depend on auto-attach",
	"Target.setDiscoverTargets":                         "cdpmcp's page tracking depends on target discovery",
	"Target.detachFromTarget":                           "cdpmcp's origin guard and page tracking depend on their sessions",
	"Target.attachToTarget":                             "sessions to targets are cdpmcp's; send calls to a page with the page argument",
	"Target.attachToBrowserTarget":                      "it would open a session to the whole browser",
	"Target.sendMessageToTarget":                        "it sends calls to any target; send them to a page with the page argument",
	"Target.createBrowserContext":                       "browser contexts are cdpmcp's: one per session",
	"Target.disposeBrowserContext":                      "browser contexts are cdpmcp's: one per session",
	"Target.setRemoteLocations":                         "it points the browser at other machines",
	"Target.openDevTools":                               "it opens DevTools on a target",
	"Browser.setDownloadBehavior":                       "cdpmcp decides where downloads go (a folder per session)",
	"Browser.close":                                     "the browser belongs to cdpmcp (or to you, when attached)",
	"Browser.getBrowserCommandLine":                     "it shows how cdpmcp started the browser",
	"Browser.executeBrowserCommand":                     "it runs browser commands outside the session",
	"SystemInfo.getProcessInfo":                         "it lists every browser process, other sessions' included",
}

// refusedDomains are domains with no method the passthrough allows beyond the
// scoped ones below, and why.
var refusedDomains = map[string]string{
	"Fetch":      "cdpmcp's origin guard owns request interception",
	"Target":     "it reaches targets beyond this session's own pages",
	"Browser":    "it acts on the whole browser, beyond this session",
	"Extensions": "it installs or controls browser extensions",
	"Tethering":  "it opens ports on this machine",
	"Tracing":    "it records every tab of every session",
	"Cast":       "it sends tabs to other devices",
	"PWA":        "it installs or launches web apps outside the session",
	"SystemInfo": "it describes the whole browser",
}

// readOnly are the methods read-only mode allows: they read the page, its
// storage or the browser's description and change nothing a page can notice.
// Debugger and Runtime.evaluate are out (a paused page, page code), and so is
// printing (print events).
var readOnly = strings.Fields(`
	Accessibility.enable Accessibility.getPartialAXTree Accessibility.getFullAXTree Accessibility.getRootAXNode
	Accessibility.getAXNodeAndAncestors Accessibility.getChildAXNodes Accessibility.queryAXTree
	Ads.getAdMetrics Ads.getAdScripts Audits.getEncodedResponse CrashReportContext.getEntries
	CSS.enable CSS.collectClassNames CSS.getBackgroundColors CSS.getComputedStyleForNode CSS.resolveValues
	CSS.getLonghandProperties CSS.getInlineStylesForNode CSS.getAnimatedStylesForNode CSS.getMatchedStylesForNode
	CSS.getEnvironmentVariables CSS.getMediaQueries CSS.getPlatformFontsForNode CSS.getStyleSheetText
	CSS.getLayersForNode CSS.getLocationForSelector
	CacheStorage.requestCacheNames CacheStorage.requestCachedResponse CacheStorage.requestEntries
	DOM.enable DOM.collectClassNamesFromSubtree DOM.describeNode DOM.getAttributes DOM.getBoxModel
	DOM.getContentQuads DOM.getDocument DOM.getFlattenedDocument DOM.getNodesForSubtreeByStyle
	DOM.getNodeForLocation DOM.getOuterHTML DOM.getRelayoutBoundary DOM.performSearch DOM.getSearchResults
	DOM.discardSearchResults DOM.pushNodeByPathToFrontend DOM.pushNodesByBackendIdsToFrontend DOM.querySelector
	DOM.querySelectorAll DOM.getTopLayerElements DOM.getElementByRelation DOM.requestChildNodes DOM.requestNode
	DOM.resolveNode DOM.getFrameOwner DOM.getContainerForNode DOM.getQueryingDescendantsForContainer
	DOM.getAnchorElement DOM.getFileInfo
	DOMDebugger.getEventListeners DOMSnapshot.enable DOMSnapshot.captureSnapshot DOMSnapshot.getSnapshot
	DOMStorage.enable DOMStorage.getDOMStorageItems
	IndexedDB.enable IndexedDB.requestDatabaseNames IndexedDB.requestDatabase IndexedDB.requestData IndexedDB.getMetadata
	Memory.getDOMCounters
	Network.canClearBrowserCache Network.canClearBrowserCookies Network.canEmulateNetworkConditions
	Network.getAllCookies Network.getCertificate Network.getCookies Network.getResponseBody
	Network.getRequestPostData Network.searchInResponseBody Network.getSecurityIsolationStatus
	Network.fetchSchemefulSite
	Page.captureScreenshot Page.captureSnapshot Page.getAppManifest Page.getInstallabilityErrors
	Page.getManifestIcons Page.getAppId Page.getFrameTree Page.getLayoutMetrics Page.getNavigationHistory
	Page.getResourceContent Page.getResourceTree Page.searchInResource Page.getPermissionsPolicyState
	Page.getOriginTrials Page.getAdScriptAncestry Page.getAnnotatedPageContent
	Performance.enable Performance.getMetrics
	Runtime.getProperties Runtime.getHeapUsage Runtime.getIsolateId Runtime.globalLexicalScopeNames
	Runtime.getExceptionDetails
	Storage.getStorageKeyForFrame Storage.getStorageKey Storage.getUsageAndQuota
`)

// scoped are the methods that can name other sessions' targets or contexts,
// or load a URL: each passes only with its Scope applied.
var scoped = map[string]rule{
	"Target.getTargets":          {scope: FilterTargets, read: true, browser: true},
	"Target.getTargetInfo":       {scope: OwnTarget, read: true, browser: true},
	"Target.getBrowserContexts":  {scope: FilterContexts, read: true, browser: true},
	"Target.createTarget":        {scope: NewTarget, browser: true},
	"Target.closeTarget":         {scope: OwnTarget, browser: true},
	"Target.activateTarget":      {scope: OwnTarget, browser: true},
	"Browser.getVersion":         {read: true, browser: true},
	"Browser.getWindowForTarget": {scope: OwnTarget, read: true, browser: true},
	"Browser.getWindowBounds":    {read: true, browser: true},
	"Browser.setPermission":      {scope: OwnContext, browser: true},
	"Browser.grantPermissions":   {scope: OwnContext, browser: true},
	"Browser.resetPermissions":   {scope: OwnContext, browser: true},
	"Browser.cancelDownload":     {scope: OwnContext, browser: true},
	"Storage.getCookies":         {scope: OwnContext, read: true, browser: true},
	"Storage.setCookies":         {scope: OwnContext, browser: true},
	"Storage.clearCookies":       {scope: OwnContext, browser: true},
	"Page.navigate":              {scope: CheckURL},
	"SystemInfo.getInfo":         {read: true, browser: true},
	"SystemInfo.getFeatureState": {read: true, browser: true},
	"Schema.getDomains":          {read: true, browser: true},
}

// rules is every allowed method: built from the tables above.
var rules = buildRules()

func buildRules() map[string]rule {
	out := map[string]rule{}
	for domain, methods := range pageDomains {
		for _, m := range strings.Fields(methods) {
			name := domain + "." + m
			if _, refused := refusedMethods[name]; !refused {
				out[name] = rule{}
			}
		}
	}
	for _, name := range readOnly {
		r, ok := out[name]
		if !ok {
			panic("cdppolicy: read-only method " + name + " is not an allowed method")
		}
		r.read = true
		out[name] = r
	}
	for name, r := range scoped {
		out[name] = r
	}
	return out
}
