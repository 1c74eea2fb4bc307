package egress

import (
	"context"
	"fmt"
	"net"
	"strings"
)

// dialChecked is the forwarder's dialer: it checks the destination once more,
// so no redirect or retry inside the transport can reach a refused one.
func (p *Proxy) dialChecked(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	return p.dialDest(ctx, host, port)
}

// refusedError is a destination refused once its name was resolved.
type refusedError struct{ err error }

func (e *refusedError) Error() string { return e.err.Error() }

// dialDest resolves host once, refuses the destination if any of its addresses
// is one of cdpmcp's own endpoints or blocked by IP, and connects to a checked
// address (never resolving again, so the name cannot change in between).
func (p *Proxy) dialDest(ctx context.Context, host, port string) (net.Conn, error) {
	ips, err := p.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if p.isReserved(ip.String(), port) {
			return nil, &refusedError{fmt.Errorf("%s leads to %s, one of cdpmcp's own endpoints", host, net.JoinHostPort(ip.String(), port))}
		}
		if err := p.policy.CheckBlockedAddr(ip, port); err != nil {
			return nil, &refusedError{fmt.Errorf("%s leads to %w", host, err)}
		}
	}
	var last error
	for _, ip := range ips {
		c, err := p.dialer.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

func resolve(ctx context.Context, host string) ([]net.IP, error) {
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return []net.IP{ip}, nil
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	ips := make([]net.IP, len(addrs))
	for i, a := range addrs {
		ips[i] = a.IP
	}
	return ips, nil
}
