// Package safefs makes the folders and files cdpmcp writes so that no other
// user of the machine can turn them against their owner: private folders,
// refused when they exist but are someone else's, a symbolic link or open to
// others' writes, and files created anew, never through a link and never over
// a file cdpmcp did not make.
package safefs
