// Package jpegblocks redraws part of a baseline JPEG without decoding the
// rest: the picture is read to its quantized DCT coefficients (ITU T.81's
// entropy decoding only), the 16×16 blocks (MCUs) a drawing touches are
// turned into pixels, drawn on and transformed back, and the whole is
// written again with every other block's coefficients as they were. Go's
// decoder spends most of an 800×600 screenshot's 6–7 ms on the inverse
// transform of all 11,250 of its 8×8 blocks (a nearly blank one takes as
// long), and its encoder as long again on the forward one; numbers drawn on
// a screenshot touch a fifth of its blocks on most pages.
//
// Only the layout Chromium gives its JPEG screenshots is taken: baseline,
// 8-bit, three components Y, Cb, Cr at 4:2:0, no restart interval (so not
// this package's own output, which has one). Anything else is refused
// (ErrLayout) and the caller decodes it whole.
package jpegblocks

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrLayout is a JPEG this package does not read: not Chromium's layout.
var ErrLayout = errors.New("jpegblocks: not a baseline 4:2:0 JPEG without restarts")

// block is an 8×8 block's coefficients in zig-zag order, quantized.
type block [64]int16

// Picture is a JPEG as its blocks.
type Picture struct {
	Width, Height int
	// mcusX, mcusY count the picture's MCUs across and down.
	mcusX, mcusY int
	// quant holds the quantization tables in zig-zag order, by table id;
	// qid is each component's table.
	quant [4][64]uint16
	qid   [3]uint8
	// ids are the components' identifiers, as the frame header gave them.
	ids [3]uint8
	// apps are the application segments (JFIF, ICC profile), kept whole.
	apps [][]byte
	// y has 2×2 blocks an MCU, row by row of blocks; cb and cr one.
	y, cb, cr []block
}

// Read parses data into its blocks.
func Read(data []byte) (*Picture, error) {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return nil, ErrLayout
	}
	p := &Picture{}
	var dc, ac [4]*huffDecoder
	var sel [3][2]uint8
	framed := false
	for i := 2; ; {
		if i+4 > len(data) || data[i] != 0xff {
			return nil, ErrLayout
		}
		marker := data[i+1]
		if marker == 0xff { // fill byte
			i++
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return nil, ErrLayout
		}
		seg, whole := data[i+4:i+2+n], data[i:i+2+n]
		i += 2 + n
		switch {
		case marker == 0xdb: // DQT
			for len(seg) > 0 {
				pq, tq := seg[0]>>4, seg[0]&15
				if pq != 0 || tq > 3 || len(seg) < 65 {
					return nil, ErrLayout
				}
				for k := range 64 {
					p.quant[tq][k] = uint16(seg[1+k])
				}
				seg = seg[65:]
			}
		case marker == 0xc4: // DHT
			for len(seg) > 0 {
				h, rest, err := readHuff(seg)
				if err != nil {
					return nil, err
				}
				tc, th := seg[0]>>4, seg[0]&15
				if th > 3 || tc > 1 {
					return nil, ErrLayout
				}
				if tc == 0 {
					dc[th] = h
				} else {
					ac[th] = h
				}
				seg = rest
			}
		case marker == 0xc0: // SOF0, baseline
			if len(seg) != 15 || seg[0] != 8 || seg[5] != 3 {
				return nil, ErrLayout
			}
			p.Height, p.Width = int(binary.BigEndian.Uint16(seg[1:])), int(binary.BigEndian.Uint16(seg[3:]))
			for c := range 3 {
				id, hv, tq := seg[6+3*c], seg[7+3*c], seg[8+3*c]
				want := uint8(0x11)
				if c == 0 {
					want = 0x22
				}
				if hv != want || tq > 3 {
					return nil, ErrLayout
				}
				p.ids[c], p.qid[c] = id, tq
			}
			if p.Width == 0 || p.Height == 0 {
				return nil, ErrLayout
			}
			p.mcusX, p.mcusY = (p.Width+15)/16, (p.Height+15)/16
			framed = true
		case marker == 0xdd: // DRI
			if len(seg) != 2 || binary.BigEndian.Uint16(seg) != 0 {
				return nil, ErrLayout
			}
		case marker == 0xda: // SOS
			if !framed || len(seg) != 10 || seg[0] != 3 || seg[7] != 0 || seg[8] != 63 || seg[9] != 0 {
				return nil, ErrLayout
			}
			for c := range 3 {
				if seg[1+2*c] != p.ids[c] {
					return nil, ErrLayout
				}
				sel[c] = [2]uint8{seg[2+2*c] >> 4, seg[2+2*c] & 15}
				if sel[c][0] > 3 || sel[c][1] > 3 || dc[sel[c][0]] == nil || ac[sel[c][1]] == nil {
					return nil, ErrLayout
				}
			}
			err := p.readScan(data[i:], func(c int) (*huffDecoder, *huffDecoder) { return dc[sel[c][0]], ac[sel[c][1]] })
			return p, err
		case marker >= 0xe0 && marker <= 0xef: // APPn: JFIF, the colour profile
			p.apps = append(p.apps, whole)
		case marker == 0xfe: // COM
		default: // another frame type (progressive, arithmetic, 12-bit) or table
			return nil, ErrLayout
		}
	}
}

// readScan decodes the entropy-coded segment into p's blocks.
func (p *Picture) readScan(data []byte, tables func(c int) (dc, ac *huffDecoder)) error {
	n := p.mcusX * p.mcusY
	// An MCU's six blocks take two bits each at the least (a DC code and
	// an end of block): a header that claims more MCUs than its scan can
	// hold is refused before the blocks are allocated.
	if n > len(data)*8/12+64 {
		return errShort
	}
	p.y, p.cb, p.cr = make([]block, 4*n), make([]block, n), make([]block, n)
	r := bitReader{data: data}
	var pred [3]int32
	for my := range p.mcusY {
		for mx := range p.mcusX {
			for c := range 3 {
				dc, ac := tables(c)
				var blocks []*block
				switch c {
				case 0:
					row := 2 * p.mcusX
					at := 2*my*row + 2*mx
					blocks = []*block{&p.y[at], &p.y[at+1], &p.y[at+row], &p.y[at+row+1]}
				case 1:
					blocks = []*block{&p.cb[my*p.mcusX+mx]}
				case 2:
					blocks = []*block{&p.cr[my*p.mcusX+mx]}
				}
				for _, b := range blocks {
					if err := r.block(b, dc, ac, &pred[c]); err != nil {
						return fmt.Errorf("jpegblocks: MCU %d,%d: %w", mx, my, err)
					}
				}
			}
			// The reader looks ahead at most seven bytes: more read past
			// the scan's end are blocks made up of padding.
			if r.pad > 8 {
				return fmt.Errorf("jpegblocks: MCU %d,%d: %w", mx, my, errShort)
			}
		}
	}
	return nil
}

// block decodes one block's coefficients (T.81 F.2.2).
func (r *bitReader) block(b *block, dc, ac *huffDecoder, pred *int32) error {
	s, err := dc.decode(r)
	if err != nil {
		return err
	}
	if s > 11 {
		return ErrLayout
	}
	*pred += extend(r.bits(int(s)), int(s))
	// What 8-bit samples can give (T.81 F.1.2.1.3): a DC value in
	// [-1024, 1023] and AC ones of at most 10 bits, so that every
	// difference and value Write codes has a code in Annex K's tables.
	if *pred < -1024 || *pred > 1023 {
		return ErrLayout
	}
	b[0] = int16(*pred)
	for k := 1; k < 64; {
		rs, err := ac.decode(r)
		if err != nil {
			return err
		}
		run, size := int(rs>>4), int(rs&15)
		if size == 0 {
			if run != 15 {
				return nil // end of block
			}
			k += 16
			continue
		}
		k += run
		if k > 63 || size > 10 {
			return ErrLayout
		}
		b[k] = int16(extend(r.bits(size), size))
		k++
	}
	return nil
}

// extend turns size bits v into the signed value they code (T.81 F.2.2.1).
func extend(v int32, size int) int32 {
	if size == 0 {
		return 0
	}
	if v < 1<<(size-1) {
		return v - (1 << size) + 1
	}
	return v
}
