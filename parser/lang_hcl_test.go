package parser

func init() { parseCases = append(parseCases, hclCases...) }

var hclCases = []parseCase{
	{
		name: "hcl",
		path: "infra/main.tf",
		src: `# Network for the app.

variable "cidr" {
  description = "The VPC's CIDR block."
  type        = string
}

locals {
  name = "vpc-${var.cidr}"
}

// The web server.
resource "aws_instance" "web" {
  ami       = data.aws_ami.ubuntu.id
  subnet_id = module.vpc.subnet_id
  ebs_block_device {
    volume_size = 10
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

module "vpc" {
  source = "./modules/vpc"
  name   = local.name
}

output "ip" {
  value = aws_instance.web.public_ip
}
`,
		doc: "Network for the app.",
		defs: []string{
			`var var.cidr 3-6 | variable "cidr"`,
			`var local.name 9-9`,
			`block aws_instance.web 13-19 | resource "aws_instance" "web"`,
			`block aws_instance.web.ebs_block_device 16-18 | ebs_block_device`,
			`block data.aws_ami.ubuntu 21-23`,
			`module module.vpc 25-28 | module "vpc"`,
			`const output.ip 30-32 | output "ip"`,
		},
		refs: []string{
			"cidr var sel @local.name",
			"ubuntu aws_ami sel @aws_instance.web",
			"vpc module sel @aws_instance.web",
			"subnet_id vpc sel @aws_instance.web",
			"name local sel @module.vpc",
			"web aws_instance sel @output.ip",
		},
		imports: []string{"./modules/vpc"},
		docs:    map[string]string{"var.cidr": "The VPC's CIDR block.", "aws_instance.web": "The web server."},
	},
	{
		name: "hcl-nomad",
		path: "jobs/web.hcl",
		src: `job "web" {
  group "frontend" {
    task "server" {
      driver = "docker"
    }
  }
}
`,
		defs: []string{"block web 1-7", "block web.frontend 2-6", "block web.frontend.server 3-5 | task \"server\""},
	},
	{
		name:  "hcl-broken",
		path:  "bad.tf",
		src:   "resource \"a\" \"b\" {\n  x = \n}\nvariable \"ok\" {\n}\n",
		defs:  []string{"var var.ok 4-5"},
		diags: true,
	},
}
