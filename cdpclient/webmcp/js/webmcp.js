// What a document offers WebMCP, read from cdpmcp's isolated world (the
// page's own globals can neither run nor lie there).

// modelContextState answers whether the document has document.modelContext
// (the browser runs with WebMCP), whether it is a secure context (WebMCP
// needs one) and its URL.
function modelContextState() {
  return { present: typeof document.modelContext === 'object' && document.modelContext !== null, secure: isSecureContext, url: location.href };
}
