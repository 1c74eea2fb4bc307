package jobstore

import (
	"encoding/json"
	"fmt"
)

// StoredFields are the fields of a job a store keeps as JSON text: its task
// (never with its password) and its artifacts. Every store encodes and
// decodes them here, so that what is never stored is decided once.
func StoredFields(j *Job) (task, artifacts string, err error) {
	t := j.Task
	t.Password = "" // never stored: it lives in the memory of the process that runs the job
	tb, err := json.Marshal(t)
	if err != nil {
		return "", "", err
	}
	ab, err := json.Marshal(j.Artifacts)
	if err != nil {
		return "", "", err
	}
	return string(tb), string(ab), nil
}

// LoadStoredFields sets j's task, artifacts and result from the text a store
// kept (see StoredFields).
func LoadStoredFields(j *Job, task, artifacts, result string) error {
	if err := json.Unmarshal([]byte(task), &j.Task); err != nil {
		return fmt.Errorf("read job %s task: %w", j.ID, err)
	}
	if err := json.Unmarshal([]byte(artifacts), &j.Artifacts); err != nil {
		return fmt.Errorf("read job %s artifacts: %w", j.ID, err)
	}
	if result != "" {
		j.Result = json.RawMessage(result)
	}
	return nil
}
