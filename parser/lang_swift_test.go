package parser

func init() { parseCases = append(parseCases, swiftCases...) }

var swiftCases = []parseCase{
	{
		name: "swift",
		path: "Source/Core/Session.swift",
		src: `import Foundation
@testable import Alamofire

/// A session manages requests.
///
/// More text.
public final class Session: NSObject {
    /// The shared instance.
    public static let shared = Session()
    var count: Int = 0

    /** Makes a request. */
    @discardableResult
    public func request(_ url: URL, method: HTTPMethod = .get) -> DataRequest {
        let r = DataRequest(url: url)
        r.resume()
        log("request started")
        return r
    }

    init(config: Config) { super.init() }

    struct Options { let retries: Int }
    enum Kind: String {
        case plain, secure
        func label() -> String { rawValue }
    }
}

protocol Retrier: AnyObject {
    func retry(_ r: Request) async throws -> Bool
    var limit: Int { get }
}

extension Session: Retrier {
    /// Retries once.
    func retry(_ r: Request) async throws -> Bool { Self.shared.count > 0 }
}

typealias Handler = (Result<Data, Error>) -> Void
actor Counter { var n = 0 }
let defaultTimeout = 60
func topLevel() { Session.shared.request(URL(string: "https://x")!) }
`,
		defs: []string{
			"class Session 7-28 | public final class Session: NSObject",
			"field Session.shared 9-9 | public static let shared",
			"field Session.count 10-10 | var count: Int",
			"method Session.request 13-19 | @discardableResult public func request(_ url: URL, method: HTTPMethod = .get) -> DataRequest",
			"method Session.init 21-21 | init(config: Config)",
			"struct Session.Options 23-23",
			"field Session.Options.retries 23-23",
			"enum Session.Kind 24-27 | enum Kind: String",
			"const Session.Kind.plain 25-25",
			"const Session.Kind.secure 25-25",
			"method Session.Kind.label 26-26 | func label() -> String",
			"interface Retrier 30-33 | protocol Retrier: AnyObject",
			"method Retrier.retry 31-31 | func retry(_ r: Request) async throws -> Bool",
			"field Retrier.limit 32-32",
			"method Session.retry 37-37",
			"type Handler 40-40 | typealias Handler",
			"class Counter 41-41 | actor Counter",
			"const defaultTimeout 42-42",
			"func topLevel 43-43 | func topLevel()",
		},
		docs: map[string]string{
			"Session": "A session manages requests.\n\nMore text.", "Session.shared": "The shared instance.",
			"Session.request": "Makes a request.", "Session.retry": "Retries once.",
		},
		refs: []string{
			"NSObject - type @Session",
			"DataRequest - call @Session.request",
			"resume r call @Session.request",
			"log - call @Session.request",
			"Request - type @Retrier.retry",
			"shared Self sel @Session.retry",
			"request - call @topLevel",
		},
		noRefs:  []string{"Int", "String", "print"},
		imports: []string{"Foundation", "Alamofire"},
	},
	{
		name:  "swift broken",
		path:  "Broken.swift",
		src:   "struct Good {\n    func ok() -> Int { 1 }\n}\n\nstruct Bad {\n    func broken( {\n}\n",
		defs:  []string{"struct Good 1-3", "method Good.ok 2-2"},
		diags: true,
	},
}
