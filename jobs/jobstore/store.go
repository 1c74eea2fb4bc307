// Package jobstore is the job store's contract and the types it speaks in:
// the Store interface its drivers implement (jobs/sqlite for one machine,
// jobs/postgres for a fleet) and jobs/storetest checks, a Job and its State,
// Task and Artifacts, the fleet's Worker and Event, and the errors a store
// returns. It knows nothing of the queue that runs jobs or of the browser
// (package jobs and below): a driver compiles with this package alone.
package jobstore

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Store keeps jobs durably and hands them to the processes that run them.
// Every method is safe for concurrent use. Backends live in subpackages
// (jobs/sqlite for one machine, jobs/postgres for a fleet); they behave the
// same (jobs/storetest checks it), except that only a Shared store is used by
// several processes at once.
type Store interface {
	// Create stores a new job unless one with the same Key exists (a unique
	// constraint of the store: of two racing creates, one makes the job and
	// the other returns it); then it returns that one and created false. Create assigns Seq and Rev. A job
	// given with a Worker and a Lease is held by that worker from the start
	// (a QUEUED job whose secret only that process knows). A job given
	// without a lease but started (not QUEUED) or with HasSecret counts as
	// held by a process that went away: its lease has ended.
	Create(ctx context.Context, j *Job) (stored *Job, created bool, err error)
	// Get returns the job with the given id, or ErrNotFound.
	Get(ctx context.Context, id string) (*Job, error)
	// GetByKey returns the job with the given idempotency key, or
	// ErrNotFound.
	GetByKey(ctx context.Context, key string) (*Job, error)
	// Update applies change to the job atomically if its state is one of from
	// (any state when from is empty); otherwise it returns a *StateError with
	// the job's current state and changes nothing.
	Update(ctx context.Context, id string, from []State, change func(*Job)) (*Job, error)
	// UpdateHeld is Update for the process running the job: it also changes
	// nothing, returning ErrNotHeld, unless worker holds the job's lease.
	UpdateHeld(ctx context.Context, id, worker string, from []State, change func(*Job)) (*Job, error)
	// List returns jobs in the given states (all when empty) changed after
	// revision since, oldest change first, at most limit (0: no limit).
	List(ctx context.Context, f Filter) ([]*Job, error)
	// Counts returns how many jobs are in each state.
	Counts(ctx context.Context) (map[State]int, error)
	// Ahead counts the queued jobs that will be claimed before j.
	Ahead(ctx context.Context, j *Job) (int, error)

	// Claim gives worker the next job it may run, under a lease of the given
	// length: the highest priority, then the oldest, of the jobs no process
	// holds that are QUEUED (they become DISPATCHED, their summary says to
	// which worker), or DISPATCHED or RUNNING after their holder went away
	// (they keep their state), or QUEUED and held by worker itself (a job
	// whose secret is in its memory: see Create). A job with a profile
	// another live worker holds is passed over; claiming a job with a
	// profile takes the profile's lease too. It returns nil when there is
	// nothing to claim.
	Claim(ctx context.Context, worker string, lease time.Duration) (*Job, error)
	// Renew records that w is alive, extends the leases of the unfinished
	// jobs and the profiles it holds to lease from now, and returns the
	// states of those jobs by id.
	Renew(ctx context.Context, w Worker, lease time.Duration) (map[string]State, error)
	// UpdateExpired applies change to a job whose lease, held by worker, has
	// ended (by the store's clock); otherwise it returns ErrNotHeld and
	// changes nothing. It is how a holder that went away is replaced.
	UpdateExpired(ctx context.Context, id, worker string, change func(*Job)) (*Job, error)
	// Leave forgets a worker that stops: the leases of its jobs and profiles
	// end now.
	Leave(ctx context.Context, worker string) error
	// Workers lists the workers that renewed within the last window.
	Workers(ctx context.Context, window time.Duration) ([]Worker, error)
	// Watch sends an Event for every job that may be claimed (new or
	// released) and every change of a job's state, until ctx ends. Events are
	// hints: a slow reader misses some, and a Shared store may lose them on a
	// reconnect; readers also poll.
	Watch(ctx context.Context) <-chan Event

	// TakeProfile gives worker the profile's lease unless another live
	// worker holds it, and reports whether it did.
	TakeProfile(ctx context.Context, name, worker string, lease time.Duration) (bool, error)
	// Profile returns a profile's saved state and its version (0 and nil
	// when none was saved).
	Profile(ctx context.Context, name string) (version int64, state []byte, err error)
	// SaveProfile stores a profile's state (when state is not nil) as a new
	// version and, with release, gives up worker's lease on it. It returns
	// ErrNotHeld, changing nothing, if worker does not hold the profile.
	SaveProfile(ctx context.Context, name, worker string, state []byte, release bool) (version int64, err error)

	// Shared reports whether other processes may use the store at the same
	// time (a database server), rather than this process alone (a file).
	Shared() bool
	// Close releases the store.
	Close() error
}

// Filter selects jobs for Store.List.
type Filter struct {
	States []State
	Since  int64 // revision; 0 for all
	Limit  int
	// Worker selects jobs held (or last held) by this worker.
	Worker string
	// Tenant selects the jobs of this named tenant (empty: every tenant's).
	Tenant string
	// Expired selects held jobs whose lease has ended.
	Expired bool
}

// Worker is a process that runs jobs, as it last said.
type Worker struct {
	ID string
	// LiveView is the base URL of its live view (empty without one).
	LiveView string
	// MaxTabs is how many tabs it runs at most; Busy how many it has open.
	MaxTabs, Busy int
	Started       time.Time
	Seen          time.Time // set by the store
	Version       string
	// Paused says why it claims no jobs now ("" while it does): its browser
	// cannot be found. The status of a job no worker takes says so.
	Paused string
}

// Event tells a Watch reader what changed.
type Event struct {
	// ID is the job; Claimable says it may be claimed now.
	ID        string
	Claimable bool
	// State is its new state and Worker its holder, on a change of state.
	State  State
	Worker string
}

// ErrNotFound is returned for a job id the store does not have.
var ErrNotFound = errors.New("no such job")

// ErrNotHeld is returned when a worker writes to a job or profile whose lease
// it lost (another process took it up after the lease ran out).
var ErrNotHeld = errors.New("the lease was lost: another process holds it now")

// StateError says a job was not in a state the change needed.
type StateError struct {
	ID    string
	State State
	Want  []State
}

func (e *StateError) Error() string {
	return fmt.Sprintf("job %s is %s, not %v", e.ID, e.State, e.Want)
}
