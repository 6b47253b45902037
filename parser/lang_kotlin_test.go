package parser

func init() { parseCases = append(parseCases, kotlinCases...) }

var kotlinCases = []parseCase{
	{
		name: "kotlin",
		path: "src/main/kotlin/org/demo/shop/Cart.kt",
		src: `/** Shopping carts. */
package org.demo.shop

import org.demo.util.Money
import org.demo.util.*
import kotlin.math.max as maximum // the larger

/**
 * A cart holds items.
 */
@Serializable
data class Cart(val id: String, private var items: MutableList<Item> = mutableListOf()) : Base(), Countable {
    /** Total price. */
    val total: Money get() = items.sumOf { it.price }
    var note = "gift wrap"

    fun add(item: Item): Cart {
        items.add(item)
        log("added item")
        return this
    }

    companion object Factory {
        const val MAX = 10
        fun empty() = Cart("x")
    }
}

interface Countable {
    fun count(): Int
}

object Registry {
    val carts = HashMap<String, Cart>()
}
enum class Color { RED, GREEN;
    fun hex(): String = "#fff"
}
typealias CartMap = Map<String, Cart>
/** Shouts. */
fun String.shout(): String = uppercase()
val Cart.size: Int get() = 1
const val LIMIT = 5
var counter = 0
fun top() = Registry.carts.get("a")
`,
		doc: "Shopping carts.",
		defs: []string{
			"class Cart 11-27 | @Serializable data class Cart(val id: String, private var items: MutableList<Item> = mutableListOf()) : Base(), Countable",
			"field Cart.id 12-12 | val id: String",
			"field Cart.total 14-14 | val total: Money get()",
			"field Cart.note 15-15 | var note",
			"method Cart.add 17-21 | fun add(item: Item): Cart",
			"class Cart.Factory 23-26 | companion object Factory",
			"const Cart.Factory.MAX 24-24 | const val MAX",
			"method Cart.Factory.empty 25-25 | fun empty()",
			"interface Countable 29-31",
			"method Countable.count 30-30 | fun count(): Int",
			"class Registry 33-35 | object Registry",
			"field Registry.carts 34-34",
			"enum Color 36-38 | enum class Color",
			"const Color.RED 36-36",
			"method Color.hex 37-37 | fun hex(): String",
			"type CartMap 39-39 | typealias CartMap",
			"method String.shout 41-41 | fun String.shout(): String",
			"field Cart.size 42-42 | val Cart.size: Int get()",
			"const LIMIT 43-43 | const val LIMIT",
			"var counter 44-44 | var counter",
			"func top 45-45 | fun top()",
		},
		docs: map[string]string{"Cart": "A cart holds items.", "Cart.id": "", "Cart.total": "Total price.", "String.shout": "Shouts.", "Cart.add": ""},
		refs: []string{
			"Item - type @Cart.add",
			"add items call @Cart.add",
			"log - call @Cart.add",
			"Base - call @Cart",
			"Countable - type @Cart",
			"sumOf items call @Cart.total",
			"Cart - call @Cart.Factory.empty",
			"carts Registry sel @top",
			"Cart - type @CartMap",
		},
		noRefs:  []string{"String", "Int", "mutableListOf"},
		imports: []string{"org.demo.util.Money", "org.demo.util.*", "kotlin.math.max as maximum"},
	},
	{
		name: "kotlin script",
		path: "build.gradle.kts",
		src: `plugins {
    kotlin("jvm") version "1.9.0"
}

dependencies {
    implementation("org.jetbrains.exposed:exposed-core:0.41.1")
}
`,
		refs: []string{"plugins - call @-", "implementation - call @-"},
	},
	{
		// The grammar wants a line break before the '}' that closes a
		// one-line body; the member is kept, with a diagnostic.
		name:  "kotlin one-line body",
		path:  "One.kt",
		src:   "class A { fun f() = 1 }\n\nclass B\n",
		defs:  []string{"class A 1-1", "method A.f 1-1", "class B 3-3"},
		diags: true,
	},
	{
		name:  "kotlin broken",
		path:  "Broken.kt",
		src:   "class Good {\n    fun ok() = 1\n}\n\nclass Bad {\n    fun broken( {\n}\n",
		defs:  []string{"class Good 1-3", "method Good.ok 2-2"},
		diags: true,
	},
}
