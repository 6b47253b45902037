package graph

// selfQualifier reports the qualifiers that name the enclosing object.
func selfQualifier(q string) bool { return q == "self" || q == "this" || q == "cls" }

// builtinMember reports a method name of the built-in types of language
// family fam (dict, list, str, file in Python; Array, Map, Promise, String
// in JavaScript; the collections and strings of the others): a member of
// that name used through a value of unknown type is as likely the
// built-in's as the repository's, so matching it by name is loose.
func builtinMember(fam, name string) bool {
	if fam == "go" {
		return false // Go's members of unknown type are handled apart (goMembers)
	}
	if commonBuiltinMembers[name] {
		return true
	}
	return builtinMembers[fam][name]
}

// commonBuiltinMembers are methods of the collections, strings and
// streams of most languages.
var commonBuiltinMembers = setOf(
	"get", "set", "put", "add", "remove", "delete", "pop", "push", "clear", "insert", "append",
	"contains", "has", "keys", "values", "items", "entries", "size", "length", "len", "count",
	"map", "filter", "reduce", "find", "index", "join", "split", "replace", "trim", "strip",
	"read", "write", "close", "flush", "open", "next", "iter", "copy", "clone", "sort", "reverse",
	"equals", "hash", "format", "update", "extend", "first", "last", "min", "max", "sum",
	"then", "catch", "finally", "toString", "to_string", "parse", "send", "start", "stop", "run",
	"call", "apply", "bind", "emit", "on", "off", "once", "lock", "unlock", "wait", "encode", "decode",
)

// builtinMembers are the rest of each family's built-in types' methods.
var builtinMembers = map[string]map[string]bool{
	"python": setOf(
		"setdefault", "popitem", "fromkeys", "discard", "union", "intersection", "difference",
		"issubset", "issuperset", "symmetric_difference", "lstrip", "rstrip", "startswith", "endswith",
		"lower", "upper", "title", "capitalize", "casefold", "center", "ljust", "rjust", "zfill",
		"partition", "rpartition", "rsplit", "splitlines", "isdigit", "isalpha", "isalnum", "isspace",
		"islower", "isupper", "isidentifier", "rfind", "rindex", "translate", "expandtabs",
		"readline", "readlines", "writelines", "seek", "tell", "truncate", "fileno",
		"group", "groups", "groupdict", "match", "search", "fullmatch", "findall", "finditer", "sub",
		"acquire", "release", "notify", "notify_all", "is_set", "result", "exception", "done",
		"cancel", "add_done_callback", "total_seconds", "isoformat", "strftime", "timestamp",
		"__enter__", "__exit__", "__getitem__", "__setitem__", "__contains__", "__iter__", "__len__",
	),
	"js": setOf(
		"shift", "unshift", "slice", "splice", "forEach", "findIndex", "findLast", "some", "every",
		"includes", "indexOf", "lastIndexOf", "concat", "flat", "flatMap", "fill", "at",
		"startsWith", "endsWith", "toLowerCase", "toUpperCase", "trimStart", "trimEnd", "padStart",
		"padEnd", "charAt", "charCodeAt", "substring", "substr", "replaceAll", "matchAll", "match",
		"test", "exec", "localeCompare", "toFixed", "valueOf", "toJSON", "toISOString", "getTime",
		"json", "text", "blob", "arrayBuffer", "addEventListener", "removeEventListener",
		"dispatchEvent", "preventDefault", "stopPropagation", "querySelector", "querySelectorAll",
		"getAttribute", "setAttribute", "appendChild", "removeChild", "resolve", "reject", "all",
		"addListener", "removeListener", "removeAllListeners", "pipe", "end", "destroy",
	),
	"ruby": setOf(
		"each", "each_with_index", "each_with_object", "collect", "select", "reject", "detect",
		"inject", "include?", "key?", "empty?", "nil?", "any?", "all?", "fetch", "merge", "dig",
		"to_s", "to_i", "to_a", "to_h", "to_sym", "gsub", "sub", "upcase", "downcase", "chomp",
		"compact", "flatten", "uniq", "sort_by", "group_by", "shift", "unshift", "call",
	),
	"java": setOf(
		"getOrDefault", "putIfAbsent", "computeIfAbsent", "containsKey", "containsValue",
		"isEmpty", "addAll", "removeAll", "stream", "collect", "forEach", "iterator", "hasNext",
		"hashCode", "compareTo", "length", "charAt", "substring", "startsWith", "endsWith",
		"toLowerCase", "toUpperCase", "isPresent", "orElse", "orElseGet", "ifPresent", "of",
	),
	"kotlin": setOf(
		"getOrDefault", "getOrPut", "containsKey", "isEmpty", "isNotEmpty", "forEach", "let",
		"also", "apply", "run", "takeIf", "mapNotNull", "filterNot", "firstOrNull", "lastOrNull",
		"toList", "toMap", "toSet", "toMutableList", "joinToString", "orEmpty",
	),
	"rust": setOf(
		"unwrap", "expect", "unwrap_or", "unwrap_or_else", "unwrap_or_default", "ok", "err",
		"is_some", "is_none", "is_ok", "is_err", "as_ref", "as_mut", "as_str", "as_slice", "to_owned",
		"into", "from", "iter_mut", "into_iter", "collect", "is_empty", "contains_key", "entry",
		"or_insert", "or_default", "extend_from_slice", "borrow", "borrow_mut", "lock", "await",
	),
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
