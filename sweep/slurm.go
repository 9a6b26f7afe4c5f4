package sweep

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// SlurmJob describes a sweep as a Slurm job array (one array task per shard) and a merge
// job that runs once every array task has succeeded (--dependency=afterok).
type SlurmJob struct {
	// Coraopt and Sweep are absolute paths on the cluster's shared file system; Dir
	// receives the scripts, parts/, logs/ and the merged output.
	Coraopt, Sweep, Dir string
	Name                string // job name
	Shards              int
	Partition, Time     string // optional
	CPUs                int    // per array task; the shard runs that many workers
	Plots               bool   // the merge job also draws figures into Dir/plots
}

var jobName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// ValidJobName tells whether name can be a job name in the scripts unquoted.
func ValidJobName(name string) bool { return jobName.MatchString(name) }

// Check reports what is wrong with j, naming the flag.
func (j SlurmJob) Check() error {
	switch {
	case j.Shards < 1:
		return fmt.Errorf("--shards %d: need at least 1", j.Shards)
	case j.CPUs < 1:
		return fmt.Errorf("--cpus %d: need at least 1", j.CPUs)
	case !filepath.IsAbs(j.Coraopt) || !filepath.IsAbs(j.Sweep) || !filepath.IsAbs(j.Dir):
		return fmt.Errorf("the coraopt binary, the sweep file and the directory need absolute paths")
	case !jobName.MatchString(j.Name):
		return fmt.Errorf("job name %q: use letters, digits, '.', '_' and '-'", j.Name)
	case strings.ContainsAny(j.Partition+j.Time, " \t\n'\"\\$`"):
		return fmt.Errorf("--partition %q / --time %q: no spaces, quotes or shell characters", j.Partition, j.Time)
	}
	return nil
}

// Part is the part file of shard k.
func (j SlurmJob) Part(k int) string {
	return filepath.Join(j.Dir, "parts", fmt.Sprintf("shard-%d.jsonl", k))
}

func (j SlurmJob) header(b *strings.Builder, name string) {
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(b, "#SBATCH --job-name=%s\n", name)
	if j.Partition != "" {
		fmt.Fprintf(b, "#SBATCH --partition=%s\n", j.Partition)
	}
	if j.Time != "" {
		fmt.Fprintf(b, "#SBATCH --time=%s\n", j.Time)
	}
}

// ArrayScript is the batch script of the array: task K runs shard K/N into its part
// file, resuming it if a previous attempt was killed (requeue, or a resubmission).
func (j SlurmJob) ArrayScript() string {
	var b strings.Builder
	j.header(&b, j.Name)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Shards-1)
	b.WriteString("#SBATCH --ntasks=1\n")
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.CPUs)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Dir, "logs", "shard-%a.log"))
	b.WriteString("# Written by `coraopt sweep slurm`: one array task per shard of the sweep.\n")
	b.WriteString("set -euo pipefail\n")
	fmt.Fprintf(&b, "exec %s sweep run %s --shard \"${SLURM_ARRAY_TASK_ID}/%d\" --workers \"${SLURM_CPUS_PER_TASK:-%d}\" \\\n  --out %s\"/shard-${SLURM_ARRAY_TASK_ID}.jsonl\"\n",
		quote(j.Coraopt), quote(j.Sweep), j.Shards, j.CPUs, quote(filepath.Join(j.Dir, "parts")))
	return b.String()
}

// MergeScript is the batch script of the merge job: every part by name (a missing one
// fails the merge), checked against the sweep file, the aggregates to merged.json, the
// cells in order to cells.jsonl.
func (j SlurmJob) MergeScript() string {
	var b strings.Builder
	j.header(&b, j.Name+"-merge")
	b.WriteString("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Dir, "logs", "merge.log"))
	b.WriteString("# Written by `coraopt sweep slurm`: runs after every array task succeeded (afterok).\n")
	b.WriteString("set -euo pipefail\n")
	fmt.Fprintf(&b, "cd %s\n", quote(j.Dir))
	fmt.Fprintf(&b, "%s sweep merge --sweep %s", quote(j.Coraopt), quote(j.Sweep))
	for k := range j.Shards {
		fmt.Fprintf(&b, " parts/shard-%d.jsonl", k)
	}
	b.WriteString(" -o json --joined cells.jsonl.tmp")
	if j.Plots {
		b.WriteString(" --plots plots")
	}
	b.WriteString(" > merged.json.tmp\nmv cells.jsonl.tmp cells.jsonl\nmv merged.json.tmp merged.json\n")
	return b.String()
}

// SubmitScript submits the array, then the merge job depending on it.
func (j SlurmJob) SubmitScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n# Written by `coraopt sweep slurm`: submit the array, then the merge job after it.\nset -euo pipefail\n")
	fmt.Fprintf(&b, "cd %s\n", quote(j.Dir))
	b.WriteString("array=$(sbatch --parsable array.sbatch)\narray=${array%%;*}\n")
	b.WriteString("merge=$(sbatch --parsable --dependency=afterok:\"$array\" merge.sbatch)\nmerge=${merge%%;*}\n")
	b.WriteString("echo \"array job $array, merge job $merge\"\n")
	return b.String()
}

// quote single-quotes s for a POSIX shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
