package jobs

import (
	"context"
	"errors"
	"fmt"
)

// Store keeps jobs durably. Every method is safe for concurrent use. Backends
// live in subpackages (jobs/sqlite); the queue is their only user.
type Store interface {
	// Create stores a new job unless one with the same Key exists; then it
	// returns that one and created false. Create assigns Seq and Rev.
	Create(ctx context.Context, j *Job) (stored *Job, created bool, err error)
	// Get returns the job with the given id, or ErrNotFound.
	Get(ctx context.Context, id string) (*Job, error)
	// Update applies change to the job atomically if its state is one of from
	// (any state when from is empty); otherwise it returns a *StateError with
	// the job's current state and changes nothing.
	Update(ctx context.Context, id string, from []State, change func(*Job)) (*Job, error)
	// List returns jobs in the given states (all when empty) changed after
	// revision since, oldest change first, at most limit (0: no limit).
	List(ctx context.Context, f Filter) ([]*Job, error)
	// Close releases the store.
	Close() error
}

// Filter selects jobs for Store.List.
type Filter struct {
	States []State
	Since  int64 // revision; 0 for all
	Limit  int
}

// ErrNotFound is returned for a job id the store does not have.
var ErrNotFound = errors.New("no such job")

// StateError says a job was not in a state the change needed.
type StateError struct {
	ID    string
	State State
	Want  []State
}

func (e *StateError) Error() string {
	return fmt.Sprintf("job %s is %s, not %v", e.ID, e.State, e.Want)
}
