package parser

import (
	"slices"
	"testing"
)

func TestDetectJVMAndSwift(t *testing.T) {
	for path, want := range map[string]string{
		"a/B.kt": "kotlin", "build.gradle.kts": "kotlin", "S.swift": "swift", "A.scala": "scala", "w.sc": "scala",
		"B.groovy": "groovy", "build.gradle": "groovy", "ci/Jenkinsfile": "groovy", "X.KT": "kotlin",
	} {
		if got := Detect(path); got != want {
			t.Errorf("Detect(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestJVMImport(t *testing.T) {
	for text, want := range map[string][]string{
		"import a.b.C":                                      {"a.b.C"},
		"import a.b.*":                                      {"a.b.*"},
		"import a.b.C as D // why":                          {"a.b.C as D"},
		"import static a.b.C.m;":                            {"a.b.C.m"},
		"import a.b._":                                      {"a.b._"},
		"import a.b.{C, D => E, F => _}":                    {"a.b.C", "a.b.D as E"},
		"import a.B, c.{D as E}":                            {"a.B", "c.D as E"},
		"import kotlin.math.max /* note */":                 {"kotlin.math.max"},
		"import io.circe.Decoder.Result":                    {"io.circe.Decoder.Result"},
		"import scala.collection.immutable.{ Map => IMap }": {"scala.collection.immutable.Map as IMap"},
	} {
		var got []string
		jvmImport(text, func(path, alias string) {
			if alias != "" {
				path += " as " + alias
			}
			got = append(got, path)
		})
		if !slices.Equal(got, want) {
			t.Errorf("jvmImport(%q) = %q, want %q", text, got, want)
		}
	}
}
