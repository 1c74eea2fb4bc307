package jobstore

import (
	"errors"
	"io"
	"net"
	"syscall"
)

// Unreachable reports whether err says that the store's server could not be
// reached for now, rather than that it refused the request: the connection
// was refused, reset or cut (a database restarting, failing over, or the
// network between), or the server said it is
// shutting down, starting up or out of connections. Such a failure passes by
// itself: a caller with time left may try again. A refusal that stays (a
// wrong password, no such database, no such host, a missing permission) is
// not unreachable.
//
// It knows drivers' errors by what they carry, never by their package: an
// SQLSTATE (a method SQLState() string, as pgx's PgError has), or a network
// error of the standard library.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var coded interface{ SQLState() string }
	if errors.As(err, &coded) {
		return unreachableState(coded.SQLState())
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.IsTemporary || dns.IsTimeout
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return true // a dial, read or write that failed: refused, reset, cut, timed out
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed)
}

// unreachableState reports whether an SQLSTATE says the server cannot serve
// now: class 08 (connection exception), 57P01 to 57P03 (administrator
// shutdown, crash shutdown, cannot connect now: starting up or shutting
// down), 53300 (too many connections).
func unreachableState(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return len(code) == 5 && code[:2] == "08"
}
