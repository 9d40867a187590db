package recindex

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"syscall"
	"unsafe"

	"lifezero/internal/atomicfile"
)

// The index file: a header, a section table and 8-byte aligned sections.
//
//	0  magic "LZRECIDX"
//	8  format version (uint32)
//	12 number of sections (uint32)
//	16 CRC-32C of every byte after the header and table (uint32)
//	20 reserved (uint32)
//	24 file length (uint64)
//	32 sections: name [16]byte, offset uint64, length uint64 (32 bytes each)
//
// Integers are little-endian; sections hold arrays of little-endian
// integers that are used in place through a read-only memory map.
const (
	magic         = "LZRECIDX"
	FormatVersion = 2 // 2: key extensions and move snapshots
	headerLen     = 32
	sectionLen    = 32
)

// ErrCorrupt is wrapped by every error about a truncated or damaged index
// file.
var ErrCorrupt = errors.New("index file truncated or corrupt (rebuild it with lifezero records index)")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// section is one named array of the index file.
type section struct {
	name string
	data []byte
}

// asBytes views a slice of fixed-size integers as its bytes.
func asBytes[T uint8 | uint16 | uint32 | uint64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// asSlice views bytes (aligned for T) as a slice of T.
func asSlice[T uint8 | uint16 | uint32 | uint64](b []byte) []T {
	var zero T
	n := len(b) / int(unsafe.Sizeof(zero))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

func align8(n int) int { return (n + 7) &^ 7 }

// writeSections writes the index file at path atomically: a temporary file
// in the same directory, synced, then renamed.
func writeSections(path string, secs []section) error {
	if err := atomicfile.WriteFunc(path, func(f *os.File) error { return writeTo(f, secs) }); err != nil {
		return fmt.Errorf("recindex: %w", err)
	}
	return nil
}

func writeTo(f *os.File, secs []section) error {
	head := make([]byte, align8(headerLen+sectionLen*len(secs)))
	copy(head, magic)
	binary.LittleEndian.PutUint32(head[8:], FormatVersion)
	binary.LittleEndian.PutUint32(head[12:], uint32(len(secs)))
	off := len(head)
	crc := crc32.New(castagnoli)
	var pad [8]byte
	for i, s := range secs {
		e := head[headerLen+i*sectionLen:]
		copy(e[:16], s.name)
		binary.LittleEndian.PutUint64(e[16:], uint64(off))
		binary.LittleEndian.PutUint64(e[24:], uint64(len(s.data)))
		crc.Write(s.data)
		crc.Write(pad[:align8(len(s.data))-len(s.data)])
		off += align8(len(s.data))
	}
	binary.LittleEndian.PutUint32(head[16:], crc.Sum32())
	binary.LittleEndian.PutUint64(head[24:], uint64(off))
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, s := range secs {
		if _, err := w.Write(s.data); err != nil {
			return err
		}
		if _, err := w.Write(pad[:align8(len(s.data))-len(s.data)]); err != nil {
			return err
		}
	}
	return w.Flush()
}

// mappedFile is a read-only memory map of an index file and its sections.
type mappedFile struct {
	path     string
	data     []byte
	sections map[string][]byte
}

// openSections maps path and checks its header, length and checksum.
// Errors name the file and wrap ErrCorrupt when it is damaged.
func openSections(path string) (*mappedFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	size := st.Size()
	if size < headerLen {
		return nil, corruptf(path, "%d bytes, shorter than the %d-byte header", size, headerLen)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("recindex: map %s: %w", path, err)
	}
	m := &mappedFile{path: path, data: data}
	if err := m.parse(); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

func corruptf(path, format string, args ...any) error {
	return fmt.Errorf("recindex: %s: %s: %w", path, fmt.Sprintf(format, args...), ErrCorrupt)
}

func (m *mappedFile) parse() error {
	d, path := m.data, m.path
	if string(d[:8]) != magic {
		return corruptf(path, "not a lifezero record index (bad magic %q)", d[:8])
	}
	if v := binary.LittleEndian.Uint32(d[8:]); v != FormatVersion {
		return fmt.Errorf("recindex: %s: format version %d, this lifezero reads version %d: rebuild the index with lifezero records index", path, v, FormatVersion)
	}
	n := int(binary.LittleEndian.Uint32(d[12:]))
	want := binary.LittleEndian.Uint64(d[24:])
	if uint64(len(d)) != want {
		return corruptf(path, "%d bytes but the header says %d (truncated?)", len(d), want)
	}
	start := align8(headerLen + sectionLen*n)
	if n > 64 || start > len(d) {
		return corruptf(path, "bad section count %d", n)
	}
	if got, crc := m.checksum(start), binary.LittleEndian.Uint32(d[16:]); got != crc {
		return corruptf(path, "checksum %08x, the header says %08x", got, crc)
	}
	m.sections = make(map[string][]byte, n)
	for i := 0; i < n; i++ {
		e := d[headerLen+i*sectionLen:]
		name := string(trimZero(e[:16]))
		off, ln := binary.LittleEndian.Uint64(e[16:]), binary.LittleEndian.Uint64(e[24:])
		if off%8 != 0 || off < uint64(start) || off > uint64(len(d)) || ln > uint64(len(d))-off {
			return corruptf(path, "section %q out of bounds", name)
		}
		m.sections[name] = d[off : off+ln]
	}
	return nil
}

func trimZero(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// section returns the named section as a slice of T with want elements
// (want < 0: any number).
func sectionOf[T uint8 | uint16 | uint32 | uint64](m *mappedFile, name string, want int) ([]T, error) {
	b, ok := m.sections[name]
	if !ok {
		return nil, corruptf(m.path, "no section %q", name)
	}
	var zero T
	sz := int(unsafe.Sizeof(zero))
	if len(b)%sz != 0 || (want >= 0 && len(b)/sz != want) {
		return nil, corruptf(m.path, "section %q has %d bytes, want %d elements of %d bytes", name, len(b), want, sz)
	}
	return asSlice[T](b), nil
}

// checksum is the CRC-32C of the data from start, read a chunk at a time,
// each chunk released once read.
func (m *mappedFile) checksum(start int) uint32 {
	var crc uint32
	for off := start; off < len(m.data); off += releaseChunk {
		end := min(len(m.data), off+releaseChunk)
		crc = crc32.Update(crc, castagnoli, m.data[off:end])
		m.release(off, end)
	}
	return crc
}

// releaseChunk is how much of the file is read before it is released.
const releaseChunk = 32 << 20

// release tells the kernel that bytes [lo, hi) of the map are not needed
// for now, so they leave this process's resident set; they are read back
// from the page cache when touched. Open reads the whole file to check
// it, and this keeps its peak memory to a chunk.
func (m *mappedFile) release(lo, hi int) {
	page := os.Getpagesize()
	lo, hi = lo&^(page-1), min(len(m.data), (hi+page-1)&^(page-1))
	if hi > lo {
		_ = syscall.Madvise(m.data[lo:hi], syscall.MADV_DONTNEED)
	}
}

// releaseSlice releases the bytes of s, a slice of the map.
func releaseSlice[T uint8 | uint16 | uint32 | uint64](m *mappedFile, s []T) {
	if len(s) == 0 {
		return
	}
	b := asBytes(s)
	lo := int(uintptr(unsafe.Pointer(&b[0])) - uintptr(unsafe.Pointer(&m.data[0])))
	m.release(lo, lo+len(b))
}

func (m *mappedFile) close() error {
	if m.data == nil {
		return nil
	}
	err := syscall.Munmap(m.data)
	m.data, m.sections = nil, nil
	return err
}
