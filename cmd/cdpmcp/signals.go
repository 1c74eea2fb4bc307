package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// secondSignal is closed when a second SIGINT or SIGTERM arrives: a process
// draining its jobs stops waiting for them (docs/fleet.md), as an operator
// who presses Ctrl-C again expects.
var secondSignal = make(chan struct{})

// signalled is closed by the first SIGINT or SIGTERM.
var signalled = make(chan struct{})

// hurry is closed by the signal that ends a drain: the second, or the
// first when the process stops for another reason (stdin closed).
func hurry() <-chan struct{} {
	select {
	case <-signalled:
		return secondSignal
	default:
		return signalled
	}
}

// notifySignals returns a context the first SIGINT or SIGTERM cancels; the
// second closes secondSignal. Both stay caught until stop.
func notifySignals() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			close(signalled)
			cancel()
		case <-done:
			return
		}
		select {
		case <-sigs:
			close(secondSignal)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
