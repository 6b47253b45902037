// Package annotate owns what people and agents write about the code: notes
// (dated text on a page) and memories (facts, optionally linked to a page),
// their anchors to the pages they were written about, and the repository's
// shared .wiki/ folder that carries them through git.
//
// The store (authored.go) is a small Badger database in the index folder,
// apart from the generations, that no build deletes from: Writer writes to
// it, Load and Cache read it. Anchors (anchor.go): Annotations.Place places
// every note and linked memory on a graph (fresh, possibly stale, moved or
// orphaned), and StampAnchors dates the breaks a build saw. Sharing
// (shared.go): every write also writes a Markdown file under .wiki/, and
// ImportSharedIfChanged loads that folder back.
//
// The build pipeline (engine/wiki's Build) calls in: it imports the shared
// folder and stamps anchors under the build lock; graph's builder knows
// nothing of notes.
package annotate
