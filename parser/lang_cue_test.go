package parser

func init() { parseCases = append(parseCases, cueCases...) }

var cueCases = []parseCase{
	{
		name: "cue",
		path: "deploy/service.cue",
		src: `// Package deploy describes services.
package deploy

import (
	"strings"
	k "example.com/infra/kube"
)

// #Service is one deployable service.
#Service: {
	name: string
	port: int & >0
	#Probe: {path: string}
}

#Port: int & >0 & <65536

// web serves the site.
web: #Service & {
	name: "web"
	port: 8080
}

label: strings.ToUpper(web.name)
kube: k.#Deployment
`,
		doc: "Package deploy describes services.",
		defs: []string{
			"struct #Service 10-14 | #Service:",
			"key #Service.name 11-11 | name: string",
			"struct #Service.#Probe 13-13",
			"type #Port 16-16 | #Port: int & >0 & <65536",
			"key web 19-22",
			"key web.port 21-21",
			"key label 24-24",
		},
		refs: []string{
			"#Service - type @web",
			"ToUpper strings call @label",
			"name web sel @label",
			"#Deployment k sel @kube",
		},
		imports: []string{"strings", "example.com/infra/kube as k"},
		docs:    map[string]string{"#Service": "#Service is one deployable service.", "web": "web serves the site."},
	},
	{
		name:  "cue-broken",
		path:  "bad.cue",
		src:   "a: {\nb: [\n}\nc: 1\n",
		diags: true,
	},
}
