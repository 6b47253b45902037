package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/mcp"
)

// The installer registers `wikitoolkit mcp` with agent clients, in the
// repository's own config files (project scope), and undoes exactly that.
// What it changed is recorded in <index>/install.json, so that uninstall
// removes only what install added and restores what it replaced; without
// that record, uninstall removes only entries identical to the ones
// install writes.

var allClients = []string{"claude", "vscode", "cursor", "codex"}

// serverName is the name of the server entry in every client's config.
const serverName = "wikitoolkit"

// Fences of the managed sections in Markdown and TOML files.
const (
	mdBegin   = "<!-- BEGIN wikitoolkit (managed by `wikitoolkit install`; `wikitoolkit uninstall` removes it) -->"
	mdEnd     = "<!-- END wikitoolkit -->"
	tomlBegin = "# BEGIN wikitoolkit (managed by `wikitoolkit install`; `wikitoolkit uninstall` removes it)"
	tomlEnd   = "# END wikitoolkit"
)

const agentGuide = `## Code wiki (wikitoolkit)

This repository is indexed by wikitoolkit, served as MCP tools (server "wikitoolkit"). Agents and
their sub-agents: use these tools first, before Grep/Glob/Read or grep/find/cat in a shell. They are
faster on large repositories and cost far fewer tokens.

- ` + "`wiki_query`" + ` — any question about the code, an identifier, a path or a stack trace: ranked pages with IDs.
- ` + "`wiki_page`" + ` / ` + "`wiki_related`" + ` — one page in full (source, callers, notes) / its neighbours, by ID from wiki_query.
- ` + "`wiki_search`" + ` / ` + "`wiki_read`" + ` — exact text or regex search / a slice of a file (replace Grep and Read).
- ` + "`wiki_remember`" + ` / ` + "`wiki_note`" + ` — save a lasting fact / a note on a page, for later sessions.
- ` + "`wiki_impact`" + ` — before and after a change: the callers (by depth), tests and files a symbol or the git diff reaches;
  ` + "`wiki_check`" + ` runs a check the project configured in .wikitoolkit.json (e.g. tests).

When you delegate to a sub-agent, tell it to use the wiki_* tools too.`

// installRecord is <index>/install.json.
type installRecord struct {
	Files map[string]*fileRecord `json:"files"`
	Dirs  []string               `json:"dirs_created,omitempty"`
}

// fileRecord is what install did to one file.
type fileRecord struct {
	Created bool `json:"created,omitempty"`
	// Replaced holds the entry install overwrote (JSON), restored on uninstall.
	Replaced json.RawMessage `json:"replaced,omitempty"`
	// Added lists the list entries install added (permissions, enabled servers).
	Added []string `json:"added,omitempty"`
	Hook  bool     `json:"hook,omitempty"`
	// Prefix is the separator install put before a fenced section.
	Prefix string `json:"prefix,omitempty"`
}

type installer struct {
	root    string
	exe     string // the command the configs run: "wikitoolkit" or an absolute path (installCommand)
	rec     *installRecord
	recPath string
	changed []string
	e       *env
}

func parseClients(s string) ([]string, error) {
	if s == "" || s == "all" {
		return allClients, nil
	}
	var out []string
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(strings.ToLower(c))
		if c == "vs-code" || c == "code" {
			c = "vscode"
		}
		if !slices.Contains(allClients, c) {
			return nil, usagef("unknown client %q (claude, vscode, cursor, codex)", c)
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

func newInstaller(e *env) (*installer, error) {
	root, indexDir := e.rootAndIndex()
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the wikitoolkit binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if err := graph.EnsureDir(indexDir); err != nil {
		return nil, err
	}
	in := &installer{root: root, exe: exe, recPath: filepath.Join(indexDir, "install.json"), e: e,
		rec: &installRecord{Files: map[string]*fileRecord{}}}
	if b, err := os.ReadFile(in.recPath); err == nil {
		if err := json.Unmarshal(b, in.rec); err != nil || in.rec.Files == nil {
			in.rec = &installRecord{Files: map[string]*fileRecord{}}
		}
	}
	return in, nil
}

func (in *installer) saveRecord() error {
	if len(in.rec.Files) == 0 && len(in.rec.Dirs) == 0 {
		if err := os.Remove(in.recPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	b, _ := json.MarshalIndent(in.rec, "", "  ")
	return os.WriteFile(in.recPath, append(b, '\n'), 0o644)
}

// installerFor parses the flags shared by install and uninstall.
func installerFor(e *env, name, what string, args []string) (*installer, []string, error) {
	fs := newFlags(e, name)
	clients := fs.String("client", "all", "clients to "+what+": claude,vscode,cursor,codex")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return nil, nil, err
	}
	if len(pos) > 0 {
		return nil, nil, usagef("%s takes no arguments (use --client)", name)
	}
	cs, err := parseClients(*clients)
	if err != nil {
		return nil, nil, err
	}
	in, err := newInstaller(e)
	return in, cs, err
}

func runInstall(e *env, args []string) error {
	in, cs, err := installerFor(e, "install", "register with", args)
	if err != nil {
		return err
	}
	cmd, note, err := installCommand(in.exe)
	if err != nil {
		return err
	}
	in.exe = cmd
	for _, c := range cs {
		if err := in.install(c); err != nil {
			in.saveRecord()
			return err
		}
	}
	if err := in.saveRecord(); err != nil {
		return err
	}
	in.report("registered", cs)
	if note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	if slices.Contains(cs, "claude") {
		fmt.Fprintln(e.stdout, "Claude Code: start `claude` in this repository and accept the trust dialog; until then `claude mcp list` shows wikitoolkit as \"Pending approval\"")
	}
	if _, err := os.Stat(filepath.Join(in.root, graph.IndexDirName, "CURRENT")); err != nil {
		fmt.Fprintln(e.stdout, "next: run 'wikitoolkit build' to index the repository (the server also builds on first use)")
	}
	return nil
}

func runUninstall(e *env, args []string) error {
	in, cs, err := installerFor(e, "uninstall", "unregister from", args)
	if err != nil {
		return err
	}
	for _, c := range cs {
		if err := in.uninstall(c, cs); err != nil {
			in.saveRecord()
			return err
		}
	}
	in.removeCreatedDirs()
	if err := in.saveRecord(); err != nil {
		return err
	}
	in.report("unregistered", cs)
	return nil
}

func (in *installer) report(what string, cs []string) {
	if len(in.changed) == 0 {
		fmt.Fprintf(in.e.stdout, "nothing to change: wikitoolkit is already %s for %s\n", what, strings.Join(cs, ", "))
		return
	}
	fmt.Fprintf(in.e.stdout, "%s wikitoolkit for %s; changed:\n", what, strings.Join(cs, ", "))
	for _, f := range in.changed {
		fmt.Fprintf(in.e.stdout, "  %s\n", f)
	}
}

// clientFiles lists the files each client's install touches.
func clientFiles(c string) []string {
	switch c {
	case "claude":
		return []string{".mcp.json", ".claude/settings.local.json", "CLAUDE.md"}
	case "vscode":
		return []string{".vscode/mcp.json", "AGENTS.md"}
	case "cursor":
		return []string{".cursor/mcp.json", "AGENTS.md"}
	case "codex":
		return []string{".codex/config.toml", "AGENTS.md"}
	}
	return nil
}

func (in *installer) install(c string) error {
	for _, f := range clientFiles(c) {
		var err error
		switch f {
		case ".mcp.json", ".cursor/mcp.json":
			err = in.installServer(f, "mcpServers", map[string]any{"command": in.exe, "args": []string{"mcp"}}, f == ".mcp.json")
		case ".vscode/mcp.json":
			err = in.installServer(f, "servers", map[string]any{"type": "stdio", "command": in.exe, "args": []string{"mcp"}}, false)
		case ".claude/settings.local.json":
			err = in.installClaudeSettings(f)
		case "CLAUDE.md", "AGENTS.md":
			err = in.installBlock(f, mdBegin, mdEnd, agentGuide)
		case ".codex/config.toml":
			err = in.installCodex(f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// uninstall undoes a client's install. AGENTS.md is shared by three
// clients: its section goes only when none of the others stays installed.
func (in *installer) uninstall(c string, removing []string) error {
	for _, f := range clientFiles(c) {
		var err error
		switch f {
		case ".mcp.json", ".cursor/mcp.json":
			err = in.uninstallServer(f, "mcpServers")
		case ".vscode/mcp.json":
			err = in.uninstallServer(f, "servers")
		case ".claude/settings.local.json":
			err = in.uninstallClaudeSettings(f)
		case "CLAUDE.md":
			err = in.uninstallBlock(f, mdBegin, mdEnd)
		case "AGENTS.md":
			keep := false
			for _, other := range []string{"vscode", "cursor", "codex"} {
				if !slices.Contains(removing, other) && in.rec.Files[clientFiles(other)[0]] != nil {
					keep = true
				}
			}
			if !keep {
				err = in.uninstallBlock(f, mdBegin, mdEnd)
			}
		case ".codex/config.toml":
			err = in.uninstallBlock(f, tomlBegin, tomlEnd)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (in *installer) path(rel string) string { return filepath.Join(in.root, filepath.FromSlash(rel)) }

// record returns the record of a file, creating it.
func (in *installer) record(rel string) *fileRecord {
	r := in.rec.Files[rel]
	if r == nil {
		r = &fileRecord{}
		in.rec.Files[rel] = r
	}
	return r
}

// readFile returns a file's content and whether it exists.
func (in *installer) readFile(rel string) ([]byte, bool, error) {
	b, err := os.ReadFile(in.path(rel))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// writeFile writes a file if its content changed, creating its directory
// (recorded, so uninstall can remove it when empty).
func (in *installer) writeFile(rel string, b []byte, old []byte, existed bool) error {
	if existed && bytes.Equal(b, old) {
		return nil
	}
	dir := filepath.Dir(in.path(rel))
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if d := filepath.ToSlash(filepath.Dir(rel)); !slices.Contains(in.rec.Dirs, d) {
			in.rec.Dirs = append(in.rec.Dirs, d)
		}
	}
	if err := os.WriteFile(in.path(rel), b, 0o644); err != nil {
		return err
	}
	in.changed = append(in.changed, rel)
	return nil
}

// removeOrWrite writes the file, or removes it when install created it and
// nothing else is left in it.
func (in *installer) removeOrWrite(rel string, b, old []byte, empty bool) error {
	r := in.rec.Files[rel]
	if empty && r != nil && r.Created {
		if err := os.Remove(in.path(rel)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		in.changed = append(in.changed, rel+" (removed)")
		return nil
	}
	return in.writeFile(rel, b, old, true)
}

func (in *installer) loadJSON(rel string) (*jsonObj, []byte, bool, error) {
	old, existed, err := in.readFile(rel)
	if err != nil {
		return nil, nil, false, err
	}
	o, err := parseObj(old)
	if err != nil {
		return nil, nil, false, fmt.Errorf("cannot edit %s: %v (is it JSON with comments? fix it or add the %q server by hand: command %s, args [\"mcp\"])",
			in.path(rel), err, serverName, in.exe)
	}
	return o, old, existed, nil
}

func (in *installer) installServer(rel, key string, entry map[string]any, claude bool) error {
	o, old, existed, err := in.loadJSON(rel)
	if err != nil {
		return err
	}
	r := in.record(rel)
	if !existed {
		r.Created = true
	}
	servers, err := o.child(key)
	if err != nil {
		return fmt.Errorf("%s: %v", rel, err)
	}
	want, _ := json.Marshal(entry)
	if cur, ok := servers.get(serverName); ok {
		if jsonEqual(cur, want) {
			return nil
		}
		if r.Replaced == nil && !isOurEntry(cur) {
			r.Replaced = append(json.RawMessage(nil), cur...)
		}
	}
	servers.set(serverName, want)
	o.setChild(key, servers)
	return in.writeFile(rel, o.pretty(), old, existed)
}

// isOurEntry reports an entry an earlier install wrote (its command runs
// some wikitoolkit binary with "mcp").
func isOurEntry(raw json.RawMessage) bool {
	var e struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	return json.Unmarshal(raw, &e) == nil && strings.Contains(filepath.Base(e.Command), "wikitoolkit") && slices.Equal(e.Args, []string{"mcp"})
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func (in *installer) uninstallServer(rel, key string) error {
	o, old, existed, err := in.loadJSON(rel)
	if err != nil || !existed {
		delete(in.rec.Files, rel)
		return err
	}
	r := in.rec.Files[rel]
	servers, err := o.child(key)
	if err != nil {
		return fmt.Errorf("%s: %v", rel, err)
	}
	if cur, ok := servers.get(serverName); ok && (r != nil || isOurEntry(cur)) {
		if r != nil && r.Replaced != nil {
			servers.set(serverName, r.Replaced)
		} else {
			servers.del(serverName)
		}
		if servers.empty() && (r != nil && r.Created) {
			o.del(key)
		} else {
			o.setChild(key, servers)
		}
	}
	err = in.removeOrWrite(rel, o.pretty(), old, o.empty())
	delete(in.rec.Files, rel)
	return err
}

// toolPermissions are the Claude Code permission rules for the wiki tools.
// wiki_check is left out: it runs the project's commands, so Claude Code
// asks the user before its first run.
func toolPermissions() []string {
	var out []string
	for _, n := range mcp.ToolNames {
		if n != "wiki_check" {
			out = append(out, "mcp__"+serverName+"__"+n)
		}
	}
	return out
}

func (in *installer) hookCommand() string { return shellQuote(in.exe) + " hook claude" }

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// installClaudeSettings allows the wiki tools, approves the .mcp.json
// server, and adds the PreToolUse hook.
func (in *installer) installClaudeSettings(rel string) error {
	o, old, existed, err := in.loadJSON(rel)
	if err != nil {
		return err
	}
	r := in.record(rel)
	if !existed {
		r.Created = true
	}
	// Keys install creates in an existing file, removed again when empty.
	for _, k := range []string{"permissions", "permissions.allow", "enabledMcpjsonServers", "hooks", "hooks.PreToolUse"} {
		if !hasPath(o, k) {
			r.Added = appendNew(r.Added, "key:"+k)
		}
	}
	perms, err := o.child("permissions")
	if err != nil {
		return err
	}
	allow, err := perms.strings("allow")
	if err != nil {
		return fmt.Errorf("%s: permissions: %v", rel, err)
	}
	for _, p := range toolPermissions() {
		if !slices.Contains(allow, p) {
			allow = append(allow, p)
			r.Added = appendNew(r.Added, p)
		}
	}
	perms.setValue("allow", allow)
	o.setChild("permissions", perms)

	enabled, err := o.strings("enabledMcpjsonServers")
	if err != nil {
		return fmt.Errorf("%s: %v", rel, err)
	}
	if !slices.Contains(enabled, serverName) {
		enabled = append(enabled, serverName)
		r.Added = appendNew(r.Added, "enabledMcpjsonServers:"+serverName)
		o.setValue("enabledMcpjsonServers", enabled)
	}

	hooks, err := o.child("hooks")
	if err != nil {
		return err
	}
	var pre []map[string]any
	if raw, ok := hooks.get("PreToolUse"); ok {
		if err := json.Unmarshal(raw, &pre); err != nil {
			return fmt.Errorf("%s: hooks.PreToolUse: %v", rel, err)
		}
	}
	pre, found := dropOurHooks(pre, in.hookCommand())
	if !found {
		r.Hook = true
	}
	pre = append(pre, map[string]any{"matcher": "Grep|Glob|Bash", "hooks": []map[string]any{
		{"type": "command", "command": in.hookCommand(), "timeout": 5}}})
	hooks.setValue("PreToolUse", pre)
	o.setChild("hooks", hooks)
	return in.writeFile(rel, o.pretty(), old, existed)
}

// hasPath reports whether the dotted key path exists in o.
func hasPath(o *jsonObj, path string) bool {
	first, rest, nested := strings.Cut(path, ".")
	if _, ok := o.get(first); !ok {
		return false
	}
	if !nested {
		return true
	}
	c, err := o.child(first)
	return err == nil && hasPath(c, rest)
}

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// dropOurHooks removes hook entries that run "… hook claude" of a
// wikitoolkit binary, and reports whether the current command was there.
func dropOurHooks(pre []map[string]any, cmd string) ([]map[string]any, bool) {
	found := false
	var out []map[string]any
	for _, m := range pre {
		hs, _ := m["hooks"].([]any)
		var keep []any
		for _, h := range hs {
			hm, _ := h.(map[string]any)
			c, _ := hm["command"].(string)
			if strings.HasSuffix(c, " hook claude") && strings.Contains(c, "wikitoolkit") {
				if c == cmd {
					found = true
				}
				continue
			}
			keep = append(keep, h)
		}
		if len(hs) > 0 && len(keep) == 0 {
			continue
		}
		if len(keep) != len(hs) {
			m["hooks"] = keep
		}
		out = append(out, m)
	}
	return out, found
}

func (in *installer) uninstallClaudeSettings(rel string) error {
	o, old, existed, err := in.loadJSON(rel)
	if err != nil || !existed {
		delete(in.rec.Files, rel)
		return err
	}
	r := in.rec.Files[rel]
	added := toolPermissions()
	enabledAdded := true
	created := map[string]bool{}
	if r != nil {
		added, enabledAdded = nil, false
		for _, a := range r.Added {
			switch {
			case a == "enabledMcpjsonServers:"+serverName:
				enabledAdded = true
			case strings.HasPrefix(a, "key:"):
				created[strings.TrimPrefix(a, "key:")] = true
			default:
				added = append(added, a)
			}
		}
		if r.Created {
			for _, k := range []string{"permissions", "permissions.allow", "enabledMcpjsonServers", "hooks", "hooks.PreToolUse"} {
				created[k] = true
			}
		}
	}
	if _, ok := o.get("permissions"); ok {
		perms, err := o.child("permissions")
		if err != nil {
			return err
		}
		allow, _ := perms.strings("allow")
		allow = slices.DeleteFunc(allow, func(p string) bool { return slices.Contains(added, p) })
		if len(allow) == 0 && created["permissions.allow"] {
			perms.del("allow")
		} else {
			perms.setValue("allow", nonNilStrings(allow))
		}
		if perms.empty() && created["permissions"] {
			o.del("permissions")
		} else {
			o.setChild("permissions", perms)
		}
	}
	if enabledAdded {
		if enabled, err := o.strings("enabledMcpjsonServers"); err == nil && enabled != nil {
			enabled = slices.DeleteFunc(enabled, func(s string) bool { return s == serverName })
			if len(enabled) == 0 && created["enabledMcpjsonServers"] {
				o.del("enabledMcpjsonServers")
			} else {
				o.setValue("enabledMcpjsonServers", nonNilStrings(enabled))
			}
		}
	}
	if _, ok := o.get("hooks"); ok {
		hooks, err := o.child("hooks")
		if err != nil {
			return err
		}
		if raw, ok := hooks.get("PreToolUse"); ok {
			var pre []map[string]any
			json.Unmarshal(raw, &pre)
			pre, _ = dropOurHooks(pre, in.hookCommand())
			if len(pre) == 0 && created["hooks.PreToolUse"] {
				hooks.del("PreToolUse")
			} else {
				if pre == nil {
					pre = []map[string]any{}
				}
				hooks.setValue("PreToolUse", pre)
			}
		}
		if hooks.empty() && created["hooks"] {
			o.del("hooks")
		} else {
			o.setChild("hooks", hooks)
		}
	}
	err = in.removeOrWrite(rel, o.pretty(), old, o.empty())
	delete(in.rec.Files, rel)
	return err
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (in *installer) installCodex(rel string) error {
	old, _, err := in.readFile(rel)
	if err != nil {
		return err
	}
	if i := bytes.Index(old, []byte("[mcp_servers."+serverName+"]")); i >= 0 && !insideBlock(old, i, tomlBegin, tomlEnd) {
		return fmt.Errorf("%s already defines [mcp_servers.%s] outside wikitoolkit's managed section; remove it, then run install again", rel, serverName)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) } // a JSON string is a valid TOML basic string
	body := fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [\"mcp\"]", serverName, q(in.exe))
	return in.installBlock(rel, tomlBegin, tomlEnd, body)
}

func insideBlock(b []byte, at int, begin, end string) bool {
	i := bytes.Index(b, []byte(begin))
	j := bytes.Index(b, []byte(end))
	return i >= 0 && j > i && at > i && at < j
}

// installBlock puts body between the fences in a text file, replacing an
// earlier section or appending a new one.
func (in *installer) installBlock(rel, begin, end, body string) error {
	old, existed, err := in.readFile(rel)
	if err != nil {
		return err
	}
	r := in.record(rel)
	if !existed {
		r.Created = true
	}
	block := begin + "\n" + body + "\n" + end + "\n"
	s := string(old)
	var out string
	if i, j := strings.Index(s, begin), strings.Index(s, end); i >= 0 && j > i {
		jEnd := j + len(end)
		if jEnd < len(s) && s[jEnd] == '\n' {
			jEnd++
		}
		out = s[:i] + block + s[jEnd:]
	} else {
		prefix := ""
		switch {
		case s == "":
		case strings.HasSuffix(s, "\n\n"):
		case strings.HasSuffix(s, "\n"):
			prefix = "\n"
		default:
			prefix = "\n\n"
		}
		r.Prefix = prefix
		out = s + prefix + block
	}
	return in.writeFile(rel, []byte(out), old, existed)
}

func (in *installer) uninstallBlock(rel, begin, end string) error {
	old, existed, err := in.readFile(rel)
	r := in.rec.Files[rel]
	if err != nil || !existed {
		delete(in.rec.Files, rel)
		return err
	}
	s := string(old)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		delete(in.rec.Files, rel)
		return nil
	}
	jEnd := j + len(end)
	if jEnd < len(s) && s[jEnd] == '\n' {
		jEnd++
	}
	before := s[:i]
	if r != nil && r.Prefix != "" && strings.HasSuffix(before, r.Prefix) && jEnd == len(s) {
		before = strings.TrimSuffix(before, r.Prefix)
	}
	out := before + s[jEnd:]
	err = in.removeOrWrite(rel, []byte(out), old, out == "")
	delete(in.rec.Files, rel)
	return err
}

// removeCreatedDirs removes directories install created that are now empty.
func (in *installer) removeCreatedDirs() {
	var keep []string
	for _, d := range in.rec.Dirs {
		p := in.path(d)
		ents, err := os.ReadDir(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err == nil && len(ents) == 0:
			os.Remove(p)
		default:
			keep = append(keep, d)
		}
	}
	in.rec.Dirs = keep
}
