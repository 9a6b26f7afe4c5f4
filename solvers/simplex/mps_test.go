package simplex

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/coraopt/coraopt/model"
)

// readMPS is a small free-format MPS reader for the tests (the Netlib files have no
// blanks in names). It keeps the first N row as the objective and drops other N rows.
func readMPS(path string) (*model.Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p := &model.Problem{Sense: model.Minimize}
	rowIdx := map[string]int{}
	rowType := []byte{}
	objName := ""
	colIdx := map[string]int{}
	type entry struct {
		row int
		val float64
	}
	var cols [][]entry
	var rhs []float64
	var rng []float64
	var hasRng []bool
	intMode := false
	section := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	num := func(s string) (float64, error) {
		return strconv.ParseFloat(strings.NewReplacer("D", "E", "d", "e").Replace(s), 64)
	}
	for sc.Scan() {
		line := sc.Text()
		if len(line) == 0 || line[0] == '*' {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			section = fields[0]
			if section == "NAME" && len(fields) > 1 {
				p.Name = fields[1]
			}
			if section == "OBJSENSE" && len(fields) > 1 && fields[1] == "MAX" {
				p.Sense = model.Maximize
			}
			continue
		}
		switch section {
		case "OBJSENSE":
			if fields[0] == "MAX" || fields[0] == "MAXIMIZE" {
				p.Sense = model.Maximize
			}
		case "ROWS":
			t := fields[0][0]
			if t == 'N' {
				if objName == "" {
					objName = fields[1]
				} else {
					rowIdx[fields[1]] = -2
				}
				continue
			}
			rowIdx[fields[1]] = len(rowType)
			rowType = append(rowType, t)
			p.RowNames = append(p.RowNames, fields[1])
		case "COLUMNS":
			if len(fields) >= 3 && fields[1] == "'MARKER'" {
				intMode = strings.Contains(fields[2], "INTORG")
				continue
			}
			name := fields[0]
			j, ok := colIdx[name]
			if !ok {
				j = len(cols)
				colIdx[name] = j
				cols = append(cols, nil)
				p.ColNames = append(p.ColNames, name)
				p.ColCost = append(p.ColCost, 0)
				p.ColLower = append(p.ColLower, 0)
				p.ColUpper = append(p.ColUpper, math.Inf(1))
				p.Integrality = append(p.Integrality, intMode)
			}
			for k := 1; k+1 < len(fields); k += 2 {
				v, err := num(fields[k+1])
				if err != nil {
					return nil, err
				}
				if fields[k] == objName {
					p.ColCost[j] += v
					continue
				}
				i, ok := rowIdx[fields[k]]
				if !ok {
					return nil, fmt.Errorf("unknown row %s", fields[k])
				}
				if i < 0 || v == 0 {
					continue
				}
				cols[j] = append(cols[j], entry{i, v})
			}
		case "RHS", "RANGES":
			if rhs == nil {
				rhs = make([]float64, len(rowType))
				rng = make([]float64, len(rowType))
				hasRng = make([]bool, len(rowType))
			}
			start := 1
			if len(fields)%2 == 0 {
				start = 1
			} else {
				start = 1
			}
			if len(fields)%2 == 0 {
				start = 0
			}
			for k := start; k+1 < len(fields); k += 2 {
				v, err := num(fields[k+1])
				if err != nil {
					return nil, err
				}
				if fields[k] == objName {
					if section == "RHS" {
						p.Offset = -v
					}
					continue
				}
				i, ok := rowIdx[fields[k]]
				if !ok {
					return nil, fmt.Errorf("unknown row %s", fields[k])
				}
				if i < 0 {
					continue
				}
				if section == "RHS" {
					rhs[i] = v
				} else {
					rng[i] = v
					hasRng[i] = true
				}
			}
		case "BOUNDS":
			t := fields[0]
			var name string
			var v float64
			switch len(fields) {
			case 4:
				name = fields[2]
				v, err = num(fields[3])
			case 3:
				if t == "FR" || t == "MI" || t == "PL" || t == "BV" {
					name = fields[2]
				} else {
					name = fields[1]
					v, err = num(fields[2])
				}
			case 2:
				name = fields[1]
			}
			if err != nil {
				return nil, err
			}
			j, ok := colIdx[name]
			if !ok {
				return nil, fmt.Errorf("unknown column %s", name)
			}
			switch t {
			case "UP":
				p.ColUpper[j] = v
				if v < 0 && p.ColLower[j] == 0 {
					p.ColLower[j] = math.Inf(-1)
				}
			case "LO":
				p.ColLower[j] = v
			case "FX":
				p.ColLower[j], p.ColUpper[j] = v, v
			case "FR":
				p.ColLower[j], p.ColUpper[j] = math.Inf(-1), math.Inf(1)
			case "MI":
				p.ColLower[j] = math.Inf(-1)
			case "PL":
				p.ColUpper[j] = math.Inf(1)
			case "BV":
				p.ColLower[j], p.ColUpper[j] = 0, 1
				p.Integrality[j] = true
			case "LI":
				p.ColLower[j] = v
				p.Integrality[j] = true
			case "UI":
				p.ColUpper[j] = v
				p.Integrality[j] = true
			default:
				return nil, fmt.Errorf("bound type %s", t)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	m := len(rowType)
	if rhs == nil {
		rhs = make([]float64, m)
		rng = make([]float64, m)
		hasRng = make([]bool, m)
	}
	p.RowLower = make([]float64, m)
	p.RowUpper = make([]float64, m)
	for i, t := range rowType {
		b := rhs[i]
		switch t {
		case 'L':
			p.RowLower[i], p.RowUpper[i] = math.Inf(-1), b
			if hasRng[i] {
				p.RowLower[i] = b - math.Abs(rng[i])
			}
		case 'G':
			p.RowLower[i], p.RowUpper[i] = b, math.Inf(1)
			if hasRng[i] {
				p.RowUpper[i] = b + math.Abs(rng[i])
			}
		case 'E':
			p.RowLower[i], p.RowUpper[i] = b, b
			if hasRng[i] {
				if rng[i] > 0 {
					p.RowUpper[i] = b + rng[i]
				} else {
					p.RowLower[i] = b + rng[i]
				}
			}
		}
	}
	p.AStart = []int{0}
	for _, c := range cols {
		// sort by row and merge duplicates
		mp := map[int]float64{}
		for _, e := range c {
			mp[e.row] += e.val
		}
		rows := make([]int, 0, len(mp))
		for r, v := range mp {
			if v != 0 {
				rows = append(rows, r)
			}
		}
		sortInts(rows)
		for _, r := range rows {
			p.AIndex = append(p.AIndex, r)
			p.AValue = append(p.AValue, mp[r])
		}
		p.AStart = append(p.AStart, len(p.AIndex))
	}
	hasInt := false
	for _, b := range p.Integrality {
		hasInt = hasInt || b
	}
	if !hasInt {
		p.Integrality = nil
	}
	return p, p.Validate()
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for k := i; k > 0 && a[k] < a[k-1]; k-- {
			a[k], a[k-1] = a[k-1], a[k]
		}
	}
}
