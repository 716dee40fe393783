//go:build !race

package cli

const docRace = false
