#include "textflag.h"

// splats of the bytes masks64 compares with, 16 of each
DATA splats<>+0x00(SB)/8, $0x5c5c5c5c5c5c5c5c // backslash
DATA splats<>+0x08(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA splats<>+0x10(SB)/8, $0xe0e0e0e0e0e0e0e0 // the bits a byte below 0x20 has none of
DATA splats<>+0x18(SB)/8, $0xe0e0e0e0e0e0e0e0
DATA splats<>+0x20(SB)/8, $0x2222222222222222 // "
DATA splats<>+0x28(SB)/8, $0x2222222222222222
DATA splats<>+0x30(SB)/8, $0x2f2f2f2f2f2f2f2f // /
DATA splats<>+0x38(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA splats<>+0x40(SB)/8, $0x6262626262626262 // b
DATA splats<>+0x48(SB)/8, $0x6262626262626262
DATA splats<>+0x50(SB)/8, $0x6666666666666666 // f
DATA splats<>+0x58(SB)/8, $0x6666666666666666
DATA splats<>+0x60(SB)/8, $0x6e6e6e6e6e6e6e6e // n
DATA splats<>+0x68(SB)/8, $0x6e6e6e6e6e6e6e6e
DATA splats<>+0x70(SB)/8, $0x7272727272727272 // r
DATA splats<>+0x78(SB)/8, $0x7272727272727272
DATA splats<>+0x80(SB)/8, $0x7474747474747474 // t
DATA splats<>+0x88(SB)/8, $0x7474747474747474
DATA splats<>+0x90(SB)/8, $0x7575757575757575 // u
DATA splats<>+0x98(SB)/8, $0x7575757575757575
GLOBL splats<>(SB), RODATA|NOPTR, $0xa0

// MASK16 reads the 16 bytes at off(SI) into the masks, bit i for byte
// i, shifted left by sh: DX backslashes, R9 the letters an escape may
// have after its backslash (backslash included), R11 u, R10 bytes below
// 0x20.
#define MASK16(off, sh) \
	MOVOU off(SI), X0 \
	MOVOU X0, X3 \
	PCMPEQB X13, X3 \
	PMOVMSKB X3, AX \
	MOVOU X0, X2 \
	PCMPEQB X12, X2 \
	POR X3, X2 \
	MOVOU X0, X1 \
	PCMPEQB X11, X1 \
	POR X1, X2 \
	MOVOU X0, X1 \
	PCMPEQB X10, X1 \
	POR X1, X2 \
	MOVOU X0, X1 \
	PCMPEQB X9, X1 \
	POR X1, X2 \
	MOVOU X0, X1 \
	PCMPEQB X8, X1 \
	POR X1, X2 \
	MOVOU X0, X1 \
	PCMPEQB X7, X1 \
	POR X1, X2 \
	MOVOU X0, X1 \
	PCMPEQB X6, X1 \
	POR X1, X2 \
	MOVOU X0, X1 \
	PCMPEQB X5, X1 \
	PMOVMSKB X1, R8 \
	POR X1, X2 \
	PMOVMSKB X2, BX \
	PAND X4, X0 \
	PCMPEQB X14, X0 \
	PMOVMSKB X0, CX \
	SHLQ $sh, AX \
	SHLQ $sh, BX \
	SHLQ $sh, CX \
	SHLQ $sh, R8 \
	ORQ AX, DX \
	ORQ BX, R9 \
	ORQ CX, R10 \
	ORQ R8, R11

// func masks64(p *byte) (bs, esc, u, ctl uint64)
TEXT ·masks64(SB), NOSPLIT, $0-40
	MOVQ p+0(FP), SI
	LEAQ splats<>(SB), DI
	MOVOU 0x00(DI), X13
	MOVOU 0x10(DI), X4
	MOVOU 0x20(DI), X12
	MOVOU 0x30(DI), X11
	MOVOU 0x40(DI), X10
	MOVOU 0x50(DI), X9
	MOVOU 0x60(DI), X8
	MOVOU 0x70(DI), X7
	MOVOU 0x80(DI), X6
	MOVOU 0x90(DI), X5
	PXOR X14, X14
	XORQ DX, DX
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	MASK16(0, 0)
	MASK16(16, 16)
	MASK16(32, 32)
	MASK16(48, 48)
	MOVQ DX, bs+8(FP)
	MOVQ R9, esc+16(FP)
	MOVQ R11, u+24(FP)
	MOVQ R10, ctl+32(FP)
	RET
