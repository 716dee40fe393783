#include "textflag.h"

// splats of the bytes masks64 compares with, 16 of each
DATA splats<>+0x00(SB)/8, $0x5c5c5c5c5c5c5c5c // backslash
DATA splats<>+0x08(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA splats<>+0x10(SB)/8, $0xe0e0e0e0e0e0e0e0 // the bits a byte below 0x20 has none of
DATA splats<>+0x18(SB)/8, $0xe0e0e0e0e0e0e0e0
GLOBL splats<>(SB), RODATA|NOPTR, $0x20

// MASK16 reads the 16 bytes at off(SI) into the masks, bit i for byte
// i, shifted left by sh: DX backslashes, CX bytes below 0x20.
#define MASK16(off, sh) \
	MOVOU off(SI), X0 \
	MOVOU X0, X1 \
	PCMPEQB X2, X0 \
	PMOVMSKB X0, AX \
	PAND X3, X1 \
	PCMPEQB X4, X1 \
	PMOVMSKB X1, BX \
	SHLQ $sh, AX \
	SHLQ $sh, BX \
	ORQ AX, DX \
	ORQ BX, CX

// func masks64(p *byte) (bs, ctl uint64)
TEXT ·masks64(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVOU splats<>+0x00(SB), X2
	MOVOU splats<>+0x10(SB), X3
	PXOR X4, X4
	XORQ DX, DX
	XORQ CX, CX
	MASK16(0, 0)
	MASK16(16, 16)
	MASK16(32, 32)
	MASK16(48, 48)
	MOVQ DX, bs+8(FP)
	MOVQ CX, ctl+16(FP)
	RET
