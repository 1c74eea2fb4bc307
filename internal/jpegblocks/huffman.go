package jpegblocks

import "errors"

var errShort = errors.New("jpegblocks: the scan ends early")

// huffSpec is a Huffman table as a DHT segment gives it: how many codes
// of each length, and their symbols in code order.
type huffSpec struct {
	counts [16]uint8
	vals   []uint8
}

// huffCode is a symbol's code: its low n bits.
type huffCode struct {
	code uint32
	n    uint8
}

// huffEncoder is a table's code by symbol.
type huffEncoder [256]huffCode

func (s *huffSpec) encoder() *huffEncoder {
	var e huffEncoder
	code, k := uint32(0), 0
	for l := 1; l <= 16; l++ {
		for range s.counts[l-1] {
			e[s.vals[k]] = huffCode{code, uint8(l)}
			code++
			k++
		}
		code <<= 1
	}
	return &e
}

// encoders are the Annex K tables, by DHT class and id: luma DC, luma AC,
// chroma DC, chroma AC.
var encoders = [4]*huffEncoder{lumaDC.encoder(), lumaAC.encoder(), chromaDC.encoder(), chromaAC.encoder()}

// huffDecoder decodes one Huffman table's codes (T.81 F.2.2.3): codes of
// each length are consecutive, so a code of length l is valid when it is at
// most maxCode[l], and its symbol is at valPtr[l] + code - minCode[l].
type huffDecoder struct {
	minCode, maxCode [17]int32
	valPtr           [17]int
	vals             []uint8
	// fast maps the next 8 bits to a symbol and its code's length (0: the
	// code is longer).
	fast [256]struct{ sym, n uint8 }
}

// readHuff reads one table of a DHT segment and returns the rest.
func readHuff(seg []byte) (*huffDecoder, []byte, error) {
	if len(seg) < 17 {
		return nil, nil, ErrLayout
	}
	var counts [17]int
	total := 0
	for l := 1; l <= 16; l++ {
		counts[l] = int(seg[l])
		total += counts[l]
	}
	if total > 256 || len(seg) < 17+total {
		return nil, nil, ErrLayout
	}
	h := &huffDecoder{vals: seg[17 : 17+total]}
	code, k := int32(0), 0
	for l := 1; l <= 16; l++ {
		h.valPtr[l], h.minCode[l] = k, code
		if code+int32(counts[l]) > 1<<l { // more codes than l bits can tell apart
			return nil, nil, ErrLayout
		}
		if counts[l] == 0 {
			h.maxCode[l] = -1
		} else {
			for range counts[l] {
				if l <= 8 {
					// every 8-bit prefix that starts with this code
					first := code << (8 - l)
					for j := range int32(1) << (8 - l) {
						h.fast[first+j] = struct{ sym, n uint8 }{h.vals[k], uint8(l)}
					}
				}
				code++
				k++
			}
			h.maxCode[l] = code - 1
		}
		code <<= 1
	}
	return h, seg[17+total:], nil
}

// decode reads one symbol.
func (h *huffDecoder) decode(r *bitReader) (uint8, error) {
	if r.fill(); r.n >= 8 {
		if f := h.fast[(r.acc>>(r.n-8))&0xff]; f.n > 0 {
			r.n -= int(f.n)
			return f.sym, nil
		}
	}
	code := int32(0)
	for l := 1; l <= 16; l++ {
		code = code<<1 | r.bit()
		if code <= h.maxCode[l] {
			return h.vals[h.valPtr[l]+int(code-h.minCode[l])], nil
		}
	}
	if r.end {
		return 0, errShort
	}
	return 0, ErrLayout
}

// bitReader reads an entropy-coded segment's bits, most significant first,
// with its stuffed zero bytes taken out; past its end (a marker) it reads
// ones, as a decoder pads.
type bitReader struct {
	data []byte
	i    int
	acc  uint64
	n    int // bits in acc
	end  bool
	// pad counts the bytes of ones read past the end.
	pad int
}

// fill tops acc up to at least 32 bits.
func (r *bitReader) fill() {
	for r.n <= 56-8 {
		b := byte(0xff)
		switch {
		case r.end || r.i >= len(r.data):
			r.end = true
			r.pad++
		case r.data[r.i] != 0xff:
			b = r.data[r.i]
			r.i++
		case r.i+1 < len(r.data) && r.data[r.i+1] == 0:
			r.i += 2
		default: // a marker: the scan's end
			r.end = true
			r.pad++
		}
		r.acc = r.acc<<8 | uint64(b)
		r.n += 8
	}
}

func (r *bitReader) bit() int32 {
	if r.n == 0 {
		r.fill()
	}
	r.n--
	return int32(r.acc>>r.n) & 1
}

// bits reads n bits (n ≤ 16) as an unsigned value.
func (r *bitReader) bits(n int) int32 {
	if n == 0 {
		return 0
	}
	if r.n < n {
		r.fill()
	}
	r.n -= n
	return int32(r.acc>>r.n) & (1<<n - 1)
}
