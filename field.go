package agt

import (
	"errors"
	"strconv"
	"strings"
)

// DecodeValue decodes raw, the value of the member name cut out of a record
// (a Raw kept by the record's decode), into v: the checked sub-decode. An
// empty or null raw leaves v as it is. A value of the wrong type, at raw's
// top or inside it, is a FieldError worded as Decode words one ("payload:
// "num_turns": a string where an integer belongs", or ""metadata": an array
// where an object belongs"), and v keeps what could be read.
func DecodeValue(name string, raw Raw, v any) error {
	if raw.IsNull() {
		return nil
	}
	err := API.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	if !API.Valid(raw) {
		return errors.New(name + ": not JSON")
	}
	msg := mismatch(raw, v, err)
	if rest, ok := strings.CutPrefix(msg, "byte 0:"); ok {
		return &FieldError{Msg: strconv.Quote(name) + ":" + rest}
	}
	return &FieldError{Msg: name + ": " + msg}
}

// Field decodes raw, the value of the member name of the current record,
// into v with DecodeValue, and reports a wrong type as the decode of a
// record does: an error event on the record (its text kept) and the
// diagnostic "PATH:LINE: unexpected field type: …"; the record's other
// events still come. It reports whether raw was read whole.
func (e *Emitter) Field(name string, raw Raw, v any) bool {
	err := DecodeValue(name, raw, v)
	if err == nil {
		return true
	}
	e.Emit(e.errorEvent(err.Error()), "", "error:"+name)
	return false
}
