package parser

import "testing"

func init() { parseCases = append(parseCases, luaCases...) }

var luaCases = []parseCase{
	{
		name: "lua",
		path: "lua/lazy/core/util.lua",
		src: `--- Utilities for the plugin manager.
local M = {}
local Config = require("lazy.core.config")
local fs = require "lazy.core.fs"
---@alias CacheHash {mtime: {sec:number, nsec:number}, size:number}

---@class LazyOpts
---@field root? string where plugins live
---@field install? {missing?:boolean}

--- Merges the user's options into the defaults.
---@param opts? LazyOpts
function M.setup(opts)
  Config.merge(opts, "defaults")
  local function walk(t)
    return fs.scan(t)
  end
  return walk(opts)
end

--- Formats a task for the log.
---@param task {name:string, opts?: table} the task
---@return string? line
function M:format(task)
  return self.prefix .. task.name
end

local function helper(x) print(x) end

M.options = {}
M.run = function(cmd) helper(cmd) end

return M
`,
		doc: "Utilities for the plugin manager.",
		defs: []string{
			"var M 2-2",
			"func M.setup 13-19 | function M.setup(opts)",
			"func M.setup.walk 15-17 | local function walk(t)",
			"method M.format 24-26 | function M:format(task)",
			"func helper 28-28",
			"var M.options 30-30 | M.options =",
			"func M.run 31-31 | M.run = function(cmd) helper(cmd) end",
		},
		docs: map[string]string{
			"M.setup":  "Merges the user's options into the defaults.\n@param opts? LazyOpts",
			"M.format": "Formats a task for the log.\n@param task {name:string, opts?: table} the task\n@return string? line",
		},
		refs: []string{
			"merge Config call @M.setup",
			"scan fs call @M.setup.walk",
			"walk - call @M.setup",
			"helper - call @M.run",
		},
		noRefs:  []string{"print", "require"},
		imports: []string{"lazy.core.config", "lazy.core.fs"},
	},
	{
		name:  "lua-broken",
		path:  "broken.lua",
		src:   "local M = {}\nfunction M.ok(a)\n  return a\nend\nfunction M.bad(\n  if then\nend\n",
		defs:  []string{"func M.ok 2-4"},
		diags: true,
	},
}

// TestMaskLuaLS checks that masking keeps the length and line breaks and
// touches only annotations.
func TestMaskLuaLS(t *testing.T) {
	src := "---@field a? string\nlocal s = \"---@x\"\n  ---@param b\nf(x --[[@as T]])\n--- plain\n"
	want := "-- @field a? string\nlocal s = \"---@x\"\n  -- @param b\nf(x --[[ as T]])\n--- plain\n"
	if got := string(maskLuaLS([]byte(src))); got != want {
		t.Errorf("maskLuaLS =\n%s\nwant\n%s", got, want)
	}
}
