package parser

import (
	"context"
	"testing"
)

func init() { parseCases = append(parseCases, rustMacroCases...) }

// Items declared inside item-position macro calls (macro.go).
var rustMacroCases = []parseCase{
	{
		name: "rust-macro-items",
		path: "src/net/tcp.rs",
		src: `use std::io;

cfg_net! {
    /// A TCP stream between a local and a remote socket.
    pub struct TcpStream {
        io: PollEvented<Source>,
    }

    cfg_io_util! {
        /// Splits a stream.
        pub fn split(stream: &mut TcpStream) -> ReadHalf { ReadHalf::new(stream) }
    }
}

impl TcpStream {
    cfg_io_util! {
        /// Receives data without removing it from the queue.
        pub fn peek(&self) -> usize { self.io.registration().poll_peek() }
    }
}

pin_project! {
    /// Future returned by sleep.
    #[must_use = "futures do nothing unless polled"]
    pub struct Sleep {
        #[pin]
        entry: TimerEntry,
    }
}

doc! {
    /// Waits on multiple concurrent branches.
    macro_rules! select {
        ($($t:tt)*) => {};
    }
}

fn run() {
    select! { x = a => b }
}

not_items! { a => b, c => d }
`,
		defs: []string{
			"struct TcpStream 5-7 | pub struct TcpStream",
			"field TcpStream.io 6-6",
			"func split 11-11 | pub fn split(stream: &mut TcpStream) -> ReadHalf",
			"method TcpStream.peek 18-18 | pub fn peek(&self) -> usize",
			"struct Sleep 25-28 | pub struct Sleep",
			"field Sleep.entry 27-27",
			"macro select 33-35 | macro_rules! select",
			"func run 38-40",
		},
		refs: []string{
			"PollEvented - type @TcpStream.io",
			"new ReadHalf call @split",
			"poll_peek - call @TcpStream.peek",
			"TimerEntry - type @Sleep.entry",
			"cfg_net - call @-",
		},
		noRefs:  []string{"a", "c"},
		imports: []string{"std::io"},
		docs: map[string]string{"TcpStream": "A TCP stream between a local and a remote socket.", "split": "Splits a stream.",
			"TcpStream.peek": "Receives data without removing it from the queue.", "Sleep": "Future returned by sleep.",
			"select": "Waits on multiple concurrent branches."},
	},
}

// TestMacroItemsLeaveParserWhole checks that the restricted second parses
// do not leak into the next file: after a file with macro bodies, a file
// parsed with the same Parser is parsed in full.
func TestMacroItemsLeaveParserWhole(t *testing.T) {
	p := NewParser()
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Parse(ctx, "a.rs", []byte("cfg_net! {\n    pub struct A;\n}\n")); err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse(ctx, "b.rs", []byte("pub struct B;\n\npub fn c() {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Defs) != 2 || len(f.Diagnostics) != 0 {
		t.Fatalf("second file: defs %+v, diagnostics %+v", f.Defs, f.Diagnostics)
	}
}
