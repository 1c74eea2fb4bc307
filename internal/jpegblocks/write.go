package jpegblocks

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// minSplitRows is the fewest MCU rows worth coding in two halves at once.
const minSplitRows = 8

// Write encodes the picture again: its application segments, quantization
// tables and frame as read, the Annex K Huffman tables, and one interleaved
// scan. A picture of minSplitRows MCU rows or more is coded in two halves
// at once, on two cores, joined by a restart marker (T.81 B.2.4.4: the
// decoder resets its DC predictions where the second half starts, as the
// coder did).
func (p *Picture) Write() []byte {
	var out bytes.Buffer
	out.Grow(p.Width * p.Height / 6)
	out.Write([]byte{0xff, 0xd8})
	for _, app := range p.apps {
		out.Write(app)
	}
	segment := func(marker byte, body []byte) {
		out.Write([]byte{0xff, marker})
		_ = binary.Write(&out, binary.BigEndian, uint16(len(body)+2))
		out.Write(body)
	}
	var dqt []byte
	for id := range uint8(4) {
		if id != p.qid[0] && id != p.qid[1] && id != p.qid[2] {
			continue
		}
		dqt = append(dqt, id)
		for _, q := range p.quant[id] {
			dqt = append(dqt, uint8(q))
		}
	}
	segment(0xdb, dqt)
	sof := []byte{8, byte(p.Height >> 8), byte(p.Height), byte(p.Width >> 8), byte(p.Width), 3}
	for c, hv := range []byte{0x22, 0x11, 0x11} {
		sof = append(sof, p.ids[c], hv, p.qid[c])
	}
	segment(0xc0, sof)
	var dht []byte
	for i, s := range []*huffSpec{&lumaDC, &lumaAC, &chromaDC, &chromaAC} {
		dht = append(dht, byte(i%2)<<4|byte(i/2))
		dht = append(dht, s.counts[:]...)
		dht = append(dht, s.vals...)
	}
	segment(0xc4, dht)
	top := (p.mcusY + 1) / 2
	if p.mcusY < minSplitRows || top*p.mcusX > 0xffff {
		segment(0xda, p.scanHeader())
		out.Write(p.writeRows(0, p.mcusY))
	} else {
		segment(0xdd, []byte{byte(top * p.mcusX >> 8), byte(top * p.mcusX)})
		segment(0xda, p.scanHeader())
		var second []byte
		done := make(chan struct{})
		go func() {
			defer close(done)
			second = p.writeRows(top, p.mcusY)
		}()
		out.Write(p.writeRows(0, top))
		<-done
		out.Write([]byte{0xff, 0xd0}) // RST0
		out.Write(second)
	}
	out.Write([]byte{0xff, 0xd9})
	return out.Bytes()
}

func (p *Picture) scanHeader() []byte {
	return []byte{3, p.ids[0], 0x00, p.ids[1], 0x11, p.ids[2], 0x11, 0, 63, 0}
}

// writeRows codes MCU rows from to to (exclusive), predicting each
// component's DC value from 0 at the start, and pads the last byte.
func (p *Picture) writeRows(from, to int) []byte {
	w := bitWriter{buf: make([]byte, 0, p.Width*(to-from)*MCU/6)}
	var pred [3]int16
	row := 2 * p.mcusX
	for my := from; my < to; my++ {
		for mx := range p.mcusX {
			at := 2*my*row + 2*mx
			for _, b := range [4]*block{&p.y[at], &p.y[at+1], &p.y[at+row], &p.y[at+row+1]} {
				w.block(b, &pred[0], encoders[0], encoders[1])
			}
			c := my*p.mcusX + mx
			w.block(&p.cb[c], &pred[1], encoders[2], encoders[3])
			w.block(&p.cr[c], &pred[2], encoders[2], encoders[3])
		}
	}
	w.flush()
	return w.buf
}

// bitWriter writes an entropy-coded segment, stuffing a zero after each
// 0xff byte: 32 bits at a time when none of their bytes is 0xff.
type bitWriter struct {
	buf []byte
	acc uint64
	n   uint // bits in acc not yet written, its lowest
}

// put writes the low n bits of code (n ≤ 32).
func (w *bitWriter) put(code uint32, n uint) {
	w.acc = w.acc<<n | uint64(code)&(1<<n-1)
	w.n += n
	if w.n < 32 {
		return
	}
	w.n -= 32
	v := uint32(w.acc >> w.n)
	if hasFF(v) {
		for shift := 24; shift >= 0; shift -= 8 {
			b := byte(v >> shift)
			w.buf = append(w.buf, b)
			if b == 0xff {
				w.buf = append(w.buf, 0)
			}
		}
		return
	}
	w.buf = binary.BigEndian.AppendUint32(w.buf, v)
}

// hasFF says whether a byte of v is 0xff.
func hasFF(v uint32) bool {
	x := ^v // a zero byte of x is an 0xff byte of v
	return (x-0x01010101)&^x&0x80808080 != 0
}

// flush writes what is left, its last byte padded with ones.
func (w *bitWriter) flush() {
	if pad := (8 - w.n%8) % 8; pad > 0 {
		w.acc, w.n = w.acc<<pad|(1<<pad-1), w.n+pad
	}
	for w.n > 0 {
		w.n -= 8
		b := byte(w.acc >> w.n)
		w.buf = append(w.buf, b)
		if b == 0xff {
			w.buf = append(w.buf, 0)
		}
	}
}

// block writes one block's coefficients (T.81 F.1.2).
func (w *bitWriter) block(b *block, pred *int16, dc, ac *huffEncoder) {
	w.value(int32(b[0])-int32(*pred), dc, 0)
	*pred = b[0]
	run := 0
	for k := 1; k < 64; k++ {
		if b[k] == 0 {
			run++
			continue
		}
		for run > 15 {
			w.put(ac[0xf0].code, uint(ac[0xf0].n))
			run -= 16
		}
		w.value(int32(b[k]), ac, run)
		run = 0
	}
	if run > 0 {
		w.put(ac[0x00].code, uint(ac[0x00].n))
	}
}

// value writes v with the symbol run<<4|size and then its size bits.
func (w *bitWriter) value(v int32, e *huffEncoder, run int) {
	a, low := v, v
	if v < 0 {
		a, low = -v, v-1
	}
	size := uint(bits.Len32(uint32(a)))
	sym := e[run<<4|int(size)]
	w.put(sym.code<<size|uint32(low)&(1<<size-1), uint(sym.n)+size)
}
