package parser

func init() { parseCases = append(parseCases, sqlCases...) }

var sqlCases = []parseCase{
	{
		name: "sql",
		path: "db/schema.sql",
		src: `-- Schema of the shop.

-- Customers who can sign in.
CREATE TABLE public.users (
  id serial PRIMARY KEY,
  org_id int REFERENCES orgs (id)
);

/* Users who signed in this month. */
CREATE VIEW active_users AS
  SELECT u.id FROM users u JOIN sessions s ON s.user_id = u.id;

CREATE INDEX users_org ON users (org_id);

-- Adds two numbers.
CREATE FUNCTION add(a int, b int) RETURNS int AS $$ SELECT a + b $$ LANGUAGE sql;

CREATE TYPE mood AS ENUM ('sad', 'happy');
`,
		doc: "Schema of the shop.",
		defs: []string{
			"table public.users 4-7 | CREATE TABLE public.users ( id serial PRIMARY KEY, org_id int REFERENCES orgs (id) )",
			"field public.users.id 5-5 | id serial PRIMARY KEY",
			"field public.users.org_id 6-6",
			"table active_users 10-11",
			"func add 16-16 | CREATE FUNCTION add(a int, b int) RETURNS int AS $$ SELECT a + b $$ LANGUAGE sql",
			"enum mood 18-18",
		},
		refs: []string{
			"orgs - type @public.users.org_id",
			"users - type @active_users",
			"sessions - type @active_users",
			"users - type @-",
		},
		docs: map[string]string{"public.users": "Customers who can sign in.", "active_users": "Users who signed in this month.",
			"add": "Adds two numbers."},
	},
	{
		name:  "sql-broken",
		path:  "bad.sql",
		src:   "CREATE TABLE (;\nCREATE TABLE ok (id int);\n",
		defs:  []string{"table ok 2-2"},
		diags: true,
	},
}
