// The evaluate tool's reading of a value (cdpclient/eval, value.go), in the
// page's main world: nothing here runs page code.

// same reports whether o is this very object: === runs no page code, not even a
// proxy's trap.
function same(o) {
  return this === o;
}
