package parser

func init() { parseCases = append(parseCases, elixirCases...) }

var elixirCases = []parseCase{
	{
		name: "elixir",
		path: "lib/plug/conn.ex",
		src: `defmodule Plug.Conn do
  @moduledoc """
  The Plug connection.

  Holds the request and the response.
  """
  alias Plug.Conn.Utils
  import Plug.Conn.Status, only: [code: 1]
  require Logger
  use Plug.Builder

  defstruct adapter: nil, status: nil

  @doc "Assigns a value to a key in the connection."
  @spec assign(t, atom, term) :: t
  def assign(%Plug.Conn{assigns: assigns} = conn, key, value) when is_atom(key) do
    Utils.merge(assigns, key)
    put_private(conn, value)
  end

  @doc false
  def put_private(conn, value), do: %{conn | private: value}

  defp log(msg), do: Logger.debug(msg)

  defmacro __using__(opts) do
    quote do: unquote(opts)
  end

  defmodule Unfetched do
    @moduledoc "A field not fetched yet."
    defstruct [:aspect]
  end
end
`,
		defs: []string{
			"module Plug.Conn 1-34 | defmodule Plug.Conn do",
			"struct Plug.Conn.defstruct 12-12",
			"func Plug.Conn.assign 16-19 | def assign(%Plug.Conn{assigns: assigns} = conn, key, value) when is_atom(key) do",
			"func Plug.Conn.put_private 22-22",
			"func Plug.Conn.log 24-24",
			"macro Plug.Conn.__using__ 26-28",
			"module Plug.Conn.Unfetched 30-33",
		},
		docs: map[string]string{
			"Plug.Conn":             "The Plug connection.\n\nHolds the request and the response.",
			"Plug.Conn.assign":      "Assigns a value to a key in the connection.",
			"Plug.Conn.put_private": "",
			"Plug.Conn.Unfetched":   "A field not fetched yet.",
		},
		refs: []string{
			"merge Utils call @Plug.Conn.assign",
			"put_private - call @Plug.Conn.assign",
			"debug Logger call @Plug.Conn.log",
		},
		noRefs:  []string{"def", "defp", "quote", "is_atom", "moduledoc", "doc", "spec", "alias"},
		imports: []string{"Plug.Conn.Utils", "Plug.Conn.Status", "Logger", "Plug.Builder"},
	},
	{
		name:  "elixir-broken",
		path:  "broken.ex",
		src:   "defmodule A do\n  def ok(x), do: x\n  def bad(x) do\n    x +\n",
		defs:  []string{"func ok 2-2 | def ok(x), do: x"},
		diags: true,
	},
}
