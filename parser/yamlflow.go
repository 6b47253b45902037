package parser

import "bytes"

// joinYAMLFlow is YAML's langSpec.prepare. tree-sitter-yaml gives up on a
// whole document at a flow node (a quoted scalar, a {mapping} or a
// [sequence]) that is the value of a key or a sequence entry and goes on
// over lines indented no deeper than that key or entry, which YAML
// parsers take: a description in double quotes folded onto the next line
// at its key's indentation, a JSON-style example whose closing brace sits
// under its key. Moby's API documents have both: api/swagger.yaml stopped
// parsing at line 1,375 of 14,044, and nothing after it was indexed.
//
// Such a node is put on one line: the line breaks inside it move to just
// after it, the indentation that followed each stays in place as the space
// the break folds to. The length and the number of lines are unchanged
// (as prepare must keep them), and so is every byte outside the node's
// lines; the node's own content moves to its first line, and the rest of
// its last line (a comment) to a line of its own. Block scalars (| and >)
// and comments are passed over; a node with no break, a node at the top of
// the document (a JSON-style file) or one continued deeper than its key is
// left as it is. A node never closed ends the scan.
func joinYAMLFlow(src []byte) []byte {
	if bytes.IndexAny(src, "\"'{[") < 0 {
		return src
	}
	var out []byte
	n := len(src)
	block := -1 // inside a block scalar: its content is indented deeper than this
	for i := 0; i < n; {
		ls := i
		for i < n && src[i] == ' ' {
			i++
		}
		ind := i - ls
		if block >= 0 {
			if i >= n || src[i] == '\n' || src[i] == '\r' || ind > block {
				i = breakAt(src, i) + 1
				continue
			}
			block = -1
		}
		ref := ind   // the column of the line's key (or entry's content)
		entry := ind // the column of its last sequence entry's dash
		value, inMap := false, false
		nodeStart := true
		for i < n && src[i] != '\n' {
			c := src[i]
			switch {
			case c == '#' && (i == ls || src[i-1] == ' ' || src[i-1] == '\t'):
				i = breakAt(src, i)
				continue
			case nodeStart && (c == '-' || c == '?') && blankAt(src, i+1):
				value, inMap = true, false
				entry = i - ls
				ref = i + 1 - ls
				for ref+ls < n && src[ref+ls] == ' ' {
					ref++
				}
			case nodeStart && (c == '&' || c == '!'):
				for i < n && !blankAt(src, i) {
					i++
				}
				continue
			case nodeStart && (c == '|' || c == '>') && value:
				// Its content is indented deeper than its key (or dash).
				block = entry
				if inMap {
					block = ref
				}
				i = breakAt(src, i)
				continue
			case nodeStart && (c == '"' || c == '\'' || c == '{' || c == '['):
				end, ok := flowEnd(src, i)
				if !ok {
					if out == nil {
						return src
					}
					return out
				}
				if value && bytes.IndexByte(src[i:end], '\n') >= 0 && shallowContinuation(src[i:end], ref) {
					if out == nil {
						out = bytes.Clone(src)
					}
					moveBreaks(out[i:breakAt(src, end)], end-i)
				}
				nodeStart = false
				i = end
				continue
			case c == ':' && blankAt(src, i+1):
				nodeStart, value, inMap = true, true, true
			case c == ' ' || c == '\t' || c == '\r':
			default:
				nodeStart = false
			}
			i++
		}
		i++
	}
	if out == nil {
		return src
	}
	return out
}

// blankAt says whether src[i] is a blank, a line break or past the end.
func blankAt(src []byte, i int) bool {
	return i >= len(src) || src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r'
}

// breakAt is the index of the line break ending the line holding i, or
// len(src).
func breakAt(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// flowEnd returns the index just past the flow node starting at src[i] (a
// quote, '{' or '['), and false when it is never closed.
func flowEnd(src []byte, i int) (int, bool) {
	switch src[i] {
	case '"':
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case '"':
				return j + 1, true
			}
		}
		return 0, false
	case '\'':
		for j := i + 1; j < len(src); j++ {
			if src[j] == '\'' {
				if j+1 < len(src) && src[j+1] == '\'' {
					j++
					continue
				}
				return j + 1, true
			}
		}
		return 0, false
	}
	depth := 0
	start := true // where a quoted scalar may begin
	for j := i; j < len(src); j++ {
		c := src[j]
		switch {
		case c == '{' || c == '[':
			depth++
			start = true
			continue
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return j + 1, true
			}
		case (c == '"' || c == '\'') && start:
			end, ok := flowEnd(src, j)
			if !ok {
				return 0, false
			}
			j = end - 1
		case c == '#' && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\n'):
			j = breakAt(src, j) - 1
		}
		start = c == ',' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
	}
	return 0, false
}

// shallowContinuation says whether a line inside the flow node (not its
// first, not blank) is indented no deeper than ref.
func shallowContinuation(node []byte, ref int) bool {
	for k := bytes.IndexByte(node, '\n'); k >= 0; {
		line := node[k+1:]
		next := bytes.IndexByte(line, '\n')
		if next >= 0 {
			line = line[:next]
		}
		ind := len(line) - len(bytes.TrimLeft(line, " "))
		if len(bytes.TrimSpace(line)) > 0 && ind <= ref {
			return true
		}
		if next < 0 {
			return false
		}
		k += 1 + next
	}
	return false
}

// moveBreaks moves the line breaks ("\n" or "\r\n") among the first n
// bytes of b (a flow node, followed by the rest of its last line) to just
// after them: the node's other bytes close up in order, the breaks follow,
// then the rest of b.
func moveBreaks(b []byte, n int) {
	node := make([]byte, 0, n)
	var breaks []byte
	for k := 0; k < n; k++ {
		switch {
		case b[k] == '\n':
			breaks = append(breaks, '\n')
		case b[k] == '\r' && k+1 < n && b[k+1] == '\n':
			breaks = append(breaks, '\r', '\n')
			k++
		default:
			node = append(node, b[k])
		}
	}
	copy(b, node)
	copy(b[len(node):n], breaks)
}
