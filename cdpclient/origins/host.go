package origins

import (
	"net"
	"strconv"
	"strings"
)

// canonicalHost writes a host the way a browser sends it, so that a rule cannot
// be stepped around by spelling the same host differently: without the trailing
// dot of a fully qualified name ("evil.com." is evil.com) and with an IPv4
// address in dotted decimal however it was written ("2130706434", "0x7f.1" and
// "127.1" are 127.0.0.2, 127.0.0.1 and 127.0.0.1, per the URL standard's IPv4
// parser; "[::ffff:7f00:2]" is 127.0.0.2). host is lower case; anything else is
// returned as it is.
func canonicalHost(host string) string {
	if h := strings.TrimSuffix(host, "."); h != "" && !strings.HasPrefix(h, "[") {
		host = h
	}
	// An IPv4 address written as IPv6 ([::ffff:7f00:2]) is the IPv4 address.
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil && strings.Contains(host, ":") {
		if v4 := ip.To4(); v4 != nil {
			return v4.String()
		}
	}
	if ip, ok := parseIPv4(host); ok {
		return ip
	}
	return host
}

// parseIPv4 implements the URL standard's IPv4 host parser: one to four parts,
// each decimal, octal (leading 0) or hex (0x), the last one filling the
// remaining bytes. It reports false for anything that is not such a number.
func parseIPv4(host string) (string, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 || len(parts) == 0 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	addr := last
	for i, n := range nums[:len(nums)-1] {
		addr += n << (8 * (3 - i))
	}
	return strconv.FormatUint(addr>>24&255, 10) + "." + strconv.FormatUint(addr>>16&255, 10) + "." +
		strconv.FormatUint(addr>>8&255, 10) + "." + strconv.FormatUint(addr&255, 10), true
}

func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true
		}
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 32)
	if err != nil {
		return 0, false
	}
	return n, true
}
