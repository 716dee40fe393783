//go:build !amd64

package agt

func scanEscapes(b []byte) (ctl bool, err error) { return scanEscapesGo(b) }
