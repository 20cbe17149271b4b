// Command manifest-check validates Kubernetes manifests offline: every YAML document (from files, from stdin, or
// from the ```yaml blocks of Markdown files) is decoded strictly into its k8s.io/api type, so unknown fields, wrong
// types and duplicate keys fail, and a few cross-object rules that the API server or the kubelet would enforce later
// are checked (selector vs. pod labels, volume mounts vs. volumes, named Service ports, enums that strict decoding
// cannot see). No cluster and no network are needed.
//
// Usage: manifest-check [-external KIND/NAME,...] FILE... ("-" = stdin). Prints one line per problem and ends with
// "manifest-check: N passed, M failed" (documents); exit status 1 if any failed, 2 on usage errors.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: manifest-check [flags] FILE... (- for stdin; *.md: its ```yaml blocks)")
		flag.PrintDefaults()
	}
	external := flag.String("external", "",
		"comma-separated KIND/NAME objects that exist outside the documents (e.g. Secret/oss-credentials); other "+
			"references to Secrets, ConfigMaps and PersistentVolumeClaims that are not among the documents fail")
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var docs []Doc
	for _, name := range flag.Args() {
		ds, err := readDocs(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "manifest-check: %v\n", err)
			os.Exit(2)
		}
		docs = append(docs, ds...)
	}
	failed := 0
	objs := make([]*Object, 0, len(docs))
	for _, d := range docs {
		o, err := decodeStrict(d)
		if err != nil {
			fmt.Printf("FAIL %s: %v\n", d.Where, err)
			failed++
			objs = append(objs, nil)
			continue
		}
		objs = append(objs, o)
	}
	ext := map[string]bool{}
	for _, e := range strings.Split(*external, ",") {
		if e = strings.TrimSpace(e); e != "" {
			ext[e] = true
		}
	}
	problems := crossCheck(objs, ext)
	for i, o := range objs {
		if o == nil {
			continue
		}
		if ps := problems[o]; len(ps) > 0 {
			for _, p := range ps {
				fmt.Printf("FAIL %s (%s %s): %s\n", docs[i].Where, o.Kind, o.Name, p)
			}
			failed++
		} else {
			fmt.Printf("ok   %s (%s %s)\n", docs[i].Where, o.Kind, o.Name)
		}
	}
	fmt.Printf("manifest-check: %d passed, %d failed\n", len(docs)-failed, failed)
	if len(docs) == 0 {
		fmt.Println("manifest-check: no documents found")
		os.Exit(1)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// Doc is one YAML document and where it came from (file and line of its first line).
type Doc struct {
	Where string
	Body  []byte
}

func readDocs(name string) ([]Doc, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(os.Stdin)
		name = "<stdin>"
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(name, ".md") {
		return markdownDocs(name, data), nil
	}
	return splitYAML(name, data, 1), nil
}

// splitYAML splits a YAML stream on "---" lines and drops documents that hold only comments or blanks (helm template
// leaves those behind for templates that render nothing).
func splitYAML(name string, data []byte, firstLine int) []Doc {
	var out []Doc
	var cur bytes.Buffer
	start, line := firstLine, firstLine
	flush := func() {
		if hasContent(cur.Bytes()) {
			out = append(out, Doc{Where: fmt.Sprintf("%s:%d", name, start), Body: append([]byte(nil), cur.Bytes()...)})
		}
		cur.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for sc.Scan() {
		t := sc.Text()
		if t == "---" || strings.HasPrefix(t, "--- ") {
			flush()
			start = line + 1
		} else {
			cur.WriteString(t)
			cur.WriteByte('\n')
		}
		line++
	}
	flush()
	return out
}

func hasContent(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			return true
		}
	}
	return false
}

// markdownDocs takes the ```yaml (or ```yml) fenced blocks that hold a Kubernetes object (a line starting with
// "apiVersion:"); other YAML blocks (values snippets) are skipped.
func markdownDocs(name string, data []byte) []Doc {
	var out []Doc
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if fence != "```yaml" && fence != "```yml" {
			continue
		}
		var block []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			block = append(block, lines[j])
		}
		body := strings.Join(block, "\n") + "\n"
		if strings.Contains("\n"+body, "\napiVersion:") {
			out = append(out, splitYAML(name, []byte(body), i+2)...)
		}
		i = j
	}
	return out
}
