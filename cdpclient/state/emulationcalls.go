package state

import "github.com/cdpmcp/cdpmcp/cdpclient"

// emuCall is one protocol call and the sessions it goes to.
type emuCall struct {
	method   string
	params   map[string]any
	sessions []cdpclient.Session
}

// calls are the protocol calls that put the state into effect (all of them:
// the state is complete).
func (st emulationState) calls(d cdpclient.Door, reset bool) ([]emuCall, error) {
	e := st.e
	docs := d.Sessions()
	page := docs[:1]
	var out []emuCall
	add := func(method string, params map[string]any, to []cdpclient.Session) {
		out = append(out, emuCall{method: method, params: params, sessions: to})
	}
	if e.Width > 0 || e.Height > 0 || e.Scale > 0 || e.Mobile != nil {
		if e.Width == 0 || e.Height == 0 {
			return nil, cdpclient.ArgErrorf("give both width and height (or a device)", "a viewport needs a width and a height")
		}
		mobile := e.Mobile != nil && *e.Mobile
		add("Emulation.setDeviceMetricsOverride", map[string]any{"width": e.Width, "height": e.Height,
			"deviceScaleFactor": e.Scale, "mobile": mobile}, page)
		add("Emulation.setTouchEmulationEnabled", map[string]any{"enabled": mobile}, page)
	} else if reset {
		add("Emulation.clearDeviceMetricsOverride", nil, page)
		add("Emulation.setTouchEmulationEnabled", map[string]any{"enabled": false}, page)
	}
	if st.ua != "" || reset {
		add("Emulation.setUserAgentOverride", map[string]any{"userAgent": st.ua, "acceptLanguage": e.Locale}, docs)
	}
	features := []map[string]string{}
	if e.ColorScheme != "" {
		features = append(features, map[string]string{"name": "prefers-color-scheme", "value": e.ColorScheme})
	}
	if e.ReducedMotion != "" {
		features = append(features, map[string]string{"name": "prefers-reduced-motion", "value": e.ReducedMotion})
	}
	if len(features) > 0 || reset {
		add("Emulation.setEmulatedMedia", map[string]any{"features": features}, docs)
	}
	if e.Locale != "" || reset {
		add("Emulation.setLocaleOverride", map[string]any{"locale": e.Locale}, docs)
	}
	if e.Timezone != "" || reset {
		add("Emulation.setTimezoneOverride", map[string]any{"timezoneId": e.Timezone}, docs)
	}
	if g := e.Geo; g != nil {
		acc := g.Accuracy
		if acc <= 0 {
			acc = 10
		}
		add("Emulation.setGeolocationOverride", map[string]any{"latitude": g.Latitude, "longitude": g.Longitude, "accuracy": acc}, docs)
	} else if reset {
		add("Emulation.clearGeolocationOverride", nil, docs)
	}
	if n, ok := networkPresets[e.Network]; ok || reset {
		if !ok {
			n = networkPresets["online"]
		}
		add("Network.emulateNetworkConditions", map[string]any{"offline": n.offline, "latency": n.latency,
			"downloadThroughput": n.down, "uploadThroughput": n.up}, docs)
	}
	if e.CPU > 0 || reset {
		rate := e.CPU
		if rate < 1 {
			rate = 1
		}
		add("Emulation.setCPUThrottlingRate", map[string]any{"rate": rate}, page)
	}
	return out, nil
}
