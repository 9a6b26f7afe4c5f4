package workload

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// NewRegistry refuses a table it cannot serve: a name twice, a family with no generator
// or two, an option the table does not know.
func TestNewRegistryRefuses(t *testing.T) {
	gen := func(FamilyArgs) (*Workload, error) { return nil, nil }
	conv := func(FamilyArgs, io.Reader, io.Writer) (*SWFReport, error) { return nil, nil }
	for _, tc := range []struct {
		name string
		fams []Family
		want string
	}{
		{"twice", []Family{{Name: "a", Generate: gen}, {Name: "a", Generate: gen}}, `family "a": empty or registered twice`},
		{"empty name", []Family{{Generate: gen}}, `family "": empty`},
		{"no generator", []Family{{Name: "a"}}, "exactly one of Generate and Convert"},
		{"both", []Family{{Name: "a", Generate: gen, Convert: conv}}, "exactly one of Generate and Convert"},
		{"unknown option", []Family{{Name: "a", Generate: gen, Options: []string{"jobs", "speed"}}}, `unknown option "speed"`},
	} {
		if _, err := NewRegistry(tc.fams...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A family's Generate is the generator it names, on the options it takes.
func TestFamiliesGenerate(t *testing.T) {
	reg, err := NewRegistry(Families()...)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reg.Names(), []string{"cora", "rush", "rds", "swf"}; !cmp.Equal(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	args := DefaultArgs()
	args.Jobs, args.Seed, args.BudgetRatio = 7, 3, 1.5
	direct := map[string]func() (*Workload, error){
		"cora": func() (*Workload, error) { return CORAWorkload(7, 3) },
		"rush": func() (*Workload, error) { return RUSHWorkload(7, 3, 1.5) },
		"rds":  func() (*Workload, error) { return RDSWorkload(7, 3) },
	}
	for name, want := range direct {
		f, _ := reg.Family(name)
		got, err := f.Generate(args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, _ := want()
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s: registry and generator differ:\n%s", name, diff)
		}
	}
	mixed := args
	mixed.Mix = "0.5,0.25,0.25"
	f, _ := reg.Family("cora")
	got, err := f.Generate(mixed)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := CORAWorkloadWith(7, 3, GenOptions{Mix: CORAMix{0.5, 0.25, 0.25}})
	if !cmp.Equal(want, got) {
		t.Error("cora with a mix is not CORAWorkloadWith with it")
	}
	sw, _ := reg.Family("swf")
	var out bytes.Buffer
	args.Trace, args.Jobs = "sample", 3
	trace, err := os.Open("testdata/sample.swf")
	if err != nil {
		t.Fatal(err)
	}
	defer trace.Close()
	if _, err := sw.Convert(args, trace, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(out.Bytes()); err != nil {
		t.Fatalf("swf wrote a workload Parse refuses: %v", err)
	}
}

// Check refuses each out-of-range option as an *OptionError naming it, and Generate
// checks again.
func TestFamiliesCheck(t *testing.T) {
	reg, _ := NewRegistry(Families()...)
	for _, tc := range []struct {
		family string
		set    func(*FamilyArgs)
		option string
	}{
		{"cora", func(a *FamilyArgs) { a.Jobs = 0 }, "jobs"},
		{"cora", func(a *FamilyArgs) { a.Jobs = MaxGeneratedJobs + 1 }, "jobs"},
		{"cora", func(a *FamilyArgs) { a.Mix = "1,1,1" }, "mix"},
		{"rush", func(a *FamilyArgs) { a.BudgetRatio = -1 }, "budget-ratio"},
		{"rds", func(a *FamilyArgs) { a.Jobs = MaxGeneratedJobs + 1 }, "jobs"},
		{"swf", func(a *FamilyArgs) { a.Trace = "" }, "swf"},
		{"swf", func(a *FamilyArgs) { a.Trace, a.Decay = "t", -1 }, "decay"},
		{"swf", func(a *FamilyArgs) { a.Trace, a.DeadlineFactor = "t", 0 }, "deadline-factor"},
	} {
		f, _ := reg.Family(tc.family)
		a := DefaultArgs()
		tc.set(&a)
		var oe *OptionError
		if err := f.Check(a); !errors.As(err, &oe) || oe.Option != tc.option {
			t.Errorf("%s %+v: Check %v, want an OptionError on %s", tc.family, a, err, tc.option)
		}
		var err error
		if f.Generate != nil {
			_, err = f.Generate(a)
		} else {
			_, err = f.Convert(a, strings.NewReader(""), &bytes.Buffer{})
		}
		if !errors.As(err, &oe) || oe.Option != tc.option {
			t.Errorf("%s %+v: generating: %v, want an OptionError on %s", tc.family, a, err, tc.option)
		}
	}
}

// Set parses each option by its type and says which type it wanted.
func TestFamilyArgsSet(t *testing.T) {
	var a FamilyArgs
	for _, tc := range []struct{ name, value, want string }{
		{"jobs", "x", "not an int"},
		{"seed", "-1", "not an uint"},
		{"decay", "fast", "not a float"},
		{"speed", "1", `no generator option "speed"`},
	} {
		if err := a.Set(tc.name, tc.value); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%s, %s): %v, want %q", tc.name, tc.value, err, tc.want)
		}
	}
	if err := a.Set("seed", "0x10"); err != nil || a.Seed != 16 {
		t.Errorf("seed 0x10: %v, %d", err, a.Seed)
	}
}

// Set never panics; a value it accepts for a generated family's option either passes
// the family's Check or is refused as an *OptionError naming that option, never a
// generator's panic or a workload beyond the bounds.
func FuzzFamilyArgsSet(f *testing.F) {
	for _, s := range []struct {
		opt   uint8
		value string
	}{{0, "5"}, {0, "-1"}, {0, "200001"}, {1, "0x10"}, {2, "NaN"}, {2, "-Inf"}, {3, "0.5,0.25,0.25"}, {3, ",,"}, {0, "9999999999999999999"}} {
		f.Add(s.opt, s.value)
	}
	reg, err := NewRegistry(Families()...)
	if err != nil {
		f.Fatal(err)
	}
	opts := []string{"jobs", "seed", "budget-ratio", "mix"}
	f.Fuzz(func(t *testing.T, opt uint8, value string) {
		name := opts[int(opt)%len(opts)]
		a := DefaultArgs()
		a.Jobs = 3 // small workloads: the fuzzer varies one option at a time
		if err := a.Set(name, value); err != nil {
			return
		}
		for _, fam := range []string{"cora", "rush", "rds"} {
			fm, _ := reg.Family(fam)
			if !fm.Takes(name) {
				continue
			}
			if err := fm.Check(a); err != nil {
				var oe *OptionError
				if !errors.As(err, &oe) || oe.Option != name {
					t.Fatalf("%s --%s %q: %v, want an OptionError on %s", fam, name, value, err, name)
				}
				continue
			}
			if a.Jobs > 50 {
				continue // valid, but too large to draw on every input
			}
			if _, err := fm.Generate(a); err != nil {
				t.Fatalf("%s --%s %q: Check passed, Generate failed: %v", fam, name, value, err)
			}
		}
	})
}
