package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineBytes bounds one incoming JSON-RPC line (the SDK's default).
const maxLineBytes = 16 << 20

// StdioTransport returns a newline-delimited JSON-RPC transport on in and
// out that survives garbage: the SDK ends the session on the first line it
// cannot decode, so lines that are not a JSON-RPC object are answered here
// with a parse error (-32700) and dropped. Writes to out are serialised.
func StdioTransport(in io.Reader, out io.Writer) sdk.Transport {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(br)
			if len(bytes.TrimSpace(line)) > 0 {
				if validMessage(line) {
					if _, werr := pw.Write(append(line, '\n')); werr != nil {
						return
					}
				} else {
					w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: each line must be one JSON-RPC 2.0 message"}}` + "\n"))
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return &sdk.IOTransport{Reader: pr, Writer: w}
}

// readLine reads one line without its newline; an over-long line is
// returned cut (and then fails validation).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLineBytes {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// validMessage reports a JSON object or batch array carrying "jsonrpc":"2.0".
func validMessage(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || !json.Valid(line) {
		return false
	}
	check := func(raw json.RawMessage) bool {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		return json.Unmarshal(raw, &m) == nil && m.JSONRPC == "2.0"
	}
	if line[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(line, &batch) != nil || len(batch) == 0 {
			return false
		}
		for _, m := range batch {
			if !check(m) {
				return false
			}
		}
		return true
	}
	return line[0] == '{' && check(line)
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
