package parser

func init() { parseCases = append(parseCases, groovyCases...) }

var groovyCases = []parseCase{
	{
		name: "groovy",
		path: "src/main/groovy/org/demo/build/Builder.groovy",
		src: `package org.demo.build

import groovy.transform.CompileStatic
import static java.util.Collections.emptyList
import java.util.concurrent.*
import org.demo.Helper as H

/**
 * Builds things.
 */
@CompileStatic
class Builder extends Base {
    /** The name. */
    String name = "builder"
    static final int MAX = 3

    /** Runs it. */
    void run() {
        helper.doIt(name)
        println "running"
        def h = new Helper(x: 1)
        items.each { it -> log(it) }
    }

    static Builder create(String n) { return new Builder(name: n) }
}

interface Task { void exec() }
enum Mode { FAST, SLOW }

def topFn(int a) { return a }
`,
		defs: []string{
			"class Builder 11-26 | @CompileStatic class Builder extends Base",
			"field Builder.name 14-14 | String name",
			"field Builder.MAX 15-15 | static final int MAX",
			"method Builder.run 18-23 | void run()",
			"method Builder.create 25-25 | static Builder create(String n)",
			"interface Task 28-28 | interface Task",
			"method Task.exec 28-28 | void exec()",
			"enum Mode 29-29 | enum Mode",
			"func topFn 31-31 | def topFn(int a)",
		},
		docs: map[string]string{"Builder": "Builds things.", "Builder.name": "The name.", "Builder.run": "Runs it."},
		refs: []string{
			"doIt helper call @Builder.run",
			"Helper - call @Builder.run",
			"each items call @Builder.run",
			"log - call @Builder.run",
			"Builder - type @Builder.create",
			"Base - type @Builder",
		},
		noRefs:  []string{"println", "String", "enum"},
		imports: []string{"groovy.transform.CompileStatic", "java.util.Collections.emptyList", "java.util.concurrent.*", "org.demo.Helper as H"},
		diags:   true, // the grammar does not know enum bodies
	},
	{
		name: "gradle",
		path: "build.gradle",
		src:  "plugins {\n    id 'java'\n}\ndependencies {\n    implementation \"org.x:y:1.0\"\n}\ndef version = '1.0'\n",
		defs: []string{"var version 7-7"},
		refs: []string{"plugins - call @-", "implementation - call @-"},
	},
	{
		name: "jenkinsfile",
		path: "ci/Jenkinsfile",
		src:  "pipeline {\n  agent any\n  stages {\n    stage('Build') {\n      steps { sh 'make' }\n    }\n  }\n}\n",
		refs: []string{"stages - call @-", "sh - call @-"},
	},
	{
		// The grammar has no implements clause: "implements Comparable<V>"
		// makes error recovery name the class Comparable; groovyDef puts
		// the class's own name back.
		name: "groovy implements generic",
		path: "src/main/groovy/org/acme/Version.groovy",
		src: `class Version implements Comparable<Version> {
    int major
    int compareTo(Version o) { major <=> o.major }
}
interface Named extends Serializable {}
class Tag extends Base implements Named, Cloneable {
    String label
}
`,
		defs:  []string{"class Version 1-4", "field Version.major 2-2", "method Version.compareTo 3-3", "interface Named 5-5", "class Tag 6-8", "field Tag.label 7-7"},
		diags: true,
	},
	{
		// The grammar takes one annotation before a declaration; the ones
		// stacked above it are masked as comments, and the doc comment
		// above them still belongs to the declaration.
		name: "groovy stacked annotations",
		path: "src/main/groovy/org/acme/Provider.groovy",
		src: `/** Passes the config file to the test JVM. */
@CompileStatic
@TupleConstructor(includeFields = true)
class Provider {
    /** The config file. */
    @InputFile
    @PathSensitive(PathSensitivity.RELATIVE)
    File config

    @Override
    @Internal
    String getName() { "provider" }
}

@CacheableTask
abstract class Task {
    int n
}

@Requires(
  reason = "Global Mocks"
)
@SuppressWarnings('unused')
class GlobalSpec {
    int m
}
`,
		defs: []string{"class Provider 3-13 | @TupleConstructor(includeFields = true) class Provider", "field Provider.config 7-8",
			"method Provider.getName 11-12 | @Internal String getName()", "class Task 16-18", "field Task.n 17-17",
			"class GlobalSpec 20-26", "field GlobalSpec.m 25-25"},
		docs:  map[string]string{"Provider": "Passes the config file to the test JVM.", "Provider.config": "The config file."},
		diags: true, // nor does it know named annotation arguments (includeFields = true)
	},
	{
		name:  "groovy broken",
		path:  "Broken.groovy",
		src:   "class Good {\n    def ok() { 1 }\n}\n\nclass Bad {\n    def broken( {\n}\n",
		defs:  []string{"class Good 1-3", "method Good.ok 2-2"},
		diags: true,
	},
}
