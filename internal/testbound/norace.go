//go:build !race

package testbound

const raceEnabled = false
