package optflags

import (
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"lifezero/pipelines"
)

// FlagName is the flag of a param: its yaml name with '-' for '_'.
func FlagName(param string) string { return strings.ReplaceAll(param, "_", "-") }

// Bind registers a flag on fs for every exported field of the struct opts
// points to, named after the field's yaml tag and described by its help
// tag, with the field's current value as the default. Fields tagged
// flag:"-" (params a command takes otherwise, for example as inputs) and
// yaml:"-" get no flag; embedded structs are bound field by field. A bool
// that defaults to true is turned off by --no-NAME, since --NAME=false reads
// badly on a command line. A *float64 field stays nil unless its flag is
// given. A []string field takes repeated or
// comma-separated values.
func Bind(fs *flag.FlagSet, opts any) error {
	v := reflect.ValueOf(opts)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("optflags.Bind: want a pointer to a struct, got %T", opts)
	}
	return bindStruct(fs, v.Elem())
}

func bindStruct(fs *flag.FlagSet, v reflect.Value) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("flag") == "-" {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if err := bindStruct(fs, v.Field(i)); err != nil {
				return err
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		param := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if param == "" || param == "-" {
			continue
		}
		if err := bindField(fs, FlagName(param), f.Tag.Get("help"), v.Field(i).Addr().Interface()); err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
	}
	return nil
}

func bindField(fs *flag.FlagSet, name, help string, p any) error {
	switch p := p.(type) {
	case *int:
		fs.IntVar(p, name, *p, help)
	case *int64:
		fs.Int64Var(p, name, *p, help)
	case *uint64:
		fs.Uint64Var(p, name, *p, help)
	case *float64:
		fs.Float64Var(p, name, *p, help)
	case **float64:
		fs.Var(optionalFloat{p}, name, help)
	case *string:
		fs.StringVar(p, name, *p, help)
	case *time.Duration:
		fs.DurationVar(p, name, *p, help)
	case *[]string:
		fs.Var(&stringList{list: p}, name, help)
	case *bool:
		if *p {
			fs.BoolFunc("no-"+name, "turn off: "+help, func(v string) error {
				off, err := strconv.ParseBool(v)
				if err != nil {
					return err
				}
				*p = !off // --no-rz=false leaves rz on
				return nil
			})
		} else {
			fs.BoolVar(p, name, false, help)
		}
	default:
		return fmt.Errorf("a %T option has no flag", p)
	}
	return nil
}

// optionalFloat is a *float64 flag: nil until given, so that an unset
// param can mean a default that depends on other params.
type optionalFloat struct{ p **float64 }

func (f optionalFloat) String() string {
	if f.p == nil || *f.p == nil {
		return ""
	}
	return strconv.FormatFloat(**f.p, 'g', -1, 64)
}

func (f optionalFloat) Set(v string) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return err
	}
	*f.p = &x
	return nil
}

// stringList is a []string flag that may be repeated or given
// comma-separated values; the first value given replaces the default.
type stringList struct {
	list *[]string
	set  bool
}

func (l *stringList) String() string {
	if l == nil || l.list == nil {
		return ""
	}
	return strings.Join(*l.list, ",")
}

func (l *stringList) Set(v string) error {
	if !l.set {
		*l.list, l.set = nil, true
	}
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l.list = append(*l.list, s)
		}
	}
	return nil
}

// Error turns a pipelines.ParamError into a message naming the flag instead
// of the param, for a command's usage error; ok is false for other errors.
func Error(err error) (flagMsg string, ok bool) {
	var pe *pipelines.ParamError
	if errors.As(err, &pe) {
		return fmt.Sprintf("--%s %s", FlagName(pe.Key), pe.Msg), true
	}
	return "", false
}
