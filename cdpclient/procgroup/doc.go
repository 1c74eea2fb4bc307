// Package procgroup starts a program with the processes it starts as one
// group, and ends or watches the group: a browser and its renderers. On Unix it
// is a process group; on Windows, the process tree of the group's leader.
package procgroup
