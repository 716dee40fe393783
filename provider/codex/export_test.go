package codex

import "reflect"

// ScribbleApplied has every rollout line Apply is done with scribbled over
// (each string set to "scribbled") before it goes back to be filled again,
// until the returned function is called.
func ScribbleApplied() (restore func()) {
	was := recycle
	recycle = func(r *rolloutLine) {
		scribble(reflect.ValueOf(r).Elem())
		lines.Put(r)
	}
	return func() { recycle = was }
}

// scribble sets every string of v, a struct, to "scribbled", down its
// struct members.
func scribble(v reflect.Value) {
	for i := range v.NumField() {
		switch f := v.Field(i); {
		case !f.CanSet():
		case f.Kind() == reflect.String:
			f.SetString("scribbled")
		case f.Kind() == reflect.Struct:
			scribble(f)
		}
	}
}
