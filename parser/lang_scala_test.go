package parser

func init() { parseCases = append(parseCases, scalaCases...) }

var scalaCases = []parseCase{
	{
		name: "scala",
		path: "modules/core/src/main/scala/io/demo/Decoder.scala",
		src: `package io.demo

import cats.syntax.all._
import io.demo.json.{Json, JsonObject => JO}

/** Decodes values.
  *
  * @tparam A the type
  */
trait Decoder[A] extends Serializable {
  /** Decode a cursor. */
  def apply(c: HCursor): Result[A]

  final def map[B](f: A => B): Decoder[B] = new Decoder[B] {
    def apply(c: HCursor): Result[B] = Decoder.this.apply(c).map(f)
  }
  val name: String = "decoder name"
  type Out = A
}

object Decoder {
  implicit val decodeInt: Decoder[Int] = instance(c => c.as[Int])
  def instance[A](f: HCursor => Result[A]): Decoder[A] = ???
  case class Failure(msg: String) extends Exception(msg)
  enum Color { case Red, Green }
}

class Box(val v: Int) { def get: Int = v }
extension (s: String) def shout: String = s.toUpperCase
object Main extends App { println(Decoder.instance(_ => ???)) }
`,
		defs: []string{
			"trait Decoder 10-19 | trait Decoder[A] extends Serializable",
			"method Decoder.apply 12-12 | def apply(c: HCursor): Result[A]",
			"method Decoder.map 14-16 | final def map[B](f: A => B): Decoder[B]",
			"field Decoder.name 17-17 | val name: String",
			"type Decoder.Out 18-18 | type Out",
			"class Decoder 21-26 | object Decoder",
			"field Decoder.decodeInt 22-22 | implicit val decodeInt: Decoder[Int]",
			"method Decoder.instance 23-23 | def instance[A](f: HCursor => Result[A]): Decoder[A]",
			"class Decoder.Failure 24-24 | case class Failure(msg: String) extends Exception(msg)",
			"enum Decoder.Color 25-25 | enum Color",
			"const Decoder.Color.Red 25-25",
			"class Box 28-28 | class Box(val v: Int)",
			"field Box.v 28-28 | val v: Int",
			"method Box.get 28-28 | def get: Int",
			"method String.shout 29-29 | def shout: String",
			"class Main 30-30 | object Main extends App",
		},
		docs: map[string]string{"Decoder.apply": "Decode a cursor.", "Decoder.map": ""},
		refs: []string{
			"HCursor - type @Decoder.apply",
			"instance - call @Decoder.decodeInt",
			"Decoder - call @Decoder.map",
			"instance Decoder call @Main",
			"toUpperCase s sel @String.shout",
			"Exception - type @Decoder.Failure",
		},
		noRefs:  []string{"println", "Int", "String"},
		imports: []string{"cats.syntax.all._", "io.demo.json.Json", "io.demo.json.JsonObject as JO"},
	},
	{
		name: "scala package block",
		path: "Pkg.sc",
		src:  "package outer {\n  object Inner {\n    def f = 1\n  }\n}\n",
		defs: []string{"module outer 1-5", "class outer.Inner 2-4", "method outer.Inner.f 3-3"},
	},
	{
		// A case class's first parameter list is fields (the second is
		// not); an indented body (Scala 3) ends before the doc comment of
		// the next definition, which the grammar's block takes in.
		name: "scala case class and indented body",
		path: "src/main/scala/shop/Line.scala",
		src: `case class Line[A](sku: String, qty: Int)(implicit ord: Ordering[A])

object Totals {
  def sum(ls: Seq[Line[Int]]): Int =
    ls.map(_.qty)
      .sum

  // a note on the next one
  /** Counts the lines. */
  def count(ls: Seq[Line[Int]]): Int = ls.size
}
`,
		defs: []string{
			"class Line 1-1", "field Line.sku 1-1 | sku: String", "field Line.qty 1-1 | qty: Int",
			"class Totals 3-11", "method Totals.sum 4-6", "method Totals.count 10-10",
		},
		docs: map[string]string{"Totals.count": "Counts the lines.", "Totals.sum": ""},
	},
	{
		name:  "scala broken",
		path:  "Broken.scala",
		src:   "object Good {\n  def ok = 1\n}\n\nobject Bad {\n  def broken( = {\n}\n",
		defs:  []string{"class Good 1-3", "method Good.ok 2-2"},
		diags: true,
	},
}
