package jobstore

import "github.com/cdpmcp/cdpmcp/internal/tenant"

// ProfileKey names tenant t's profile in a store: the local user's by its
// name, a named tenant's as "tenant/name" (a profile name has no slash).
func ProfileKey(t, name string) string {
	if t == tenant.Local {
		return name
	}
	return t + "/" + name
}

// IdemKey is the store's unique key of tenant's submission with
// correlationID: "tenant/correlationId" ("/correlationId" for the local
// user). A tenant's name holds no '/', so the key names one pair.
func IdemKey(tenantName, correlationID string) string {
	return tenantName + "/" + correlationID
}
