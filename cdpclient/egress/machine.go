package egress

import (
	"net"
	"strings"
	"sync"
	"time"
)

// A port cdpmcp listens on at a wildcard (0.0.0.0, ::) or a non-loopback
// address is reachable through every address of this machine: its LAN
// addresses, its public one, loopback. Such a port is reserved on all of
// them, read from the machine's interfaces as they are when a destination is
// checked (an address can come and go, a VPN's for one).

// machineAddrs are this machine's interface addresses, cached for a moment.
var machineAddrs struct {
	sync.Mutex
	at  time.Time
	set map[string]bool
}

// isMachineAddr reports whether host is an address of this machine.
func isMachineAddr(host string) bool {
	ip := net.ParseIP(strings.Trim(host, "[]"))
	if ip == nil {
		return false
	}
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	machineAddrs.Lock()
	defer machineAddrs.Unlock()
	if machineAddrs.set == nil || time.Since(machineAddrs.at) > 2*time.Second {
		machineAddrs.set = map[string]bool{}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					machineAddrs.set[n.IP.String()] = true
				}
			}
		}
		machineAddrs.at = time.Now()
	}
	if v4 := ip.To4(); v4 != nil {
		ip = v4
	}
	return machineAddrs.set[ip.String()]
}

// Exposed reports whether a listener at hostport can be reached beyond
// loopback: its host is a wildcard, a name or an address that is not
// loopback (no host means 127.0.0.1, as --http reads it).
func Exposed(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	host = strings.Trim(strings.ToLower(host), "[]")
	if host == "" || host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}
