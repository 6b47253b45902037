package parser

func init() { parseCases = append(parseCases, protobufCases...) }

var protobufCases = []parseCase{
	{
		name: "protobuf",
		path: "api/store.proto",
		src: `syntax = "proto3";

package acme.store.v1;

import "google/protobuf/timestamp.proto";
import "api/common.proto";

// An Order is what a customer bought.
message Order {
  string id = 1;
  // Item is one line of an order.
  message Item {
    int32 quantity = 1;
  }
  repeated Item items = 2;
  google.protobuf.Timestamp created = 3;
  map<string, Money> totals = 4;
  oneof payment {
    string card = 5;
  }
  enum State {
    STATE_UNSPECIFIED = 0;
  }
}

// Store sells things.
service Store {
  // GetOrder returns one order.
  rpc GetOrder(GetOrderRequest) returns (Order);
}
`,
		defs: []string{
			"module acme.store.v1 3-30 | package acme.store.v1",
			"struct acme.store.v1.Order 9-24 | message Order",
			"field acme.store.v1.Order.id 10-10 | string id = 1",
			"struct acme.store.v1.Order.Item 12-14",
			"field acme.store.v1.Order.Item.quantity 13-13",
			"field acme.store.v1.Order.totals 17-17 | map<string, Money> totals = 4",
			"field acme.store.v1.Order.payment 18-20",
			"field acme.store.v1.Order.card 19-19",
			"enum acme.store.v1.Order.State 21-23",
			"const acme.store.v1.Order.State.STATE_UNSPECIFIED 22-22",
			"interface acme.store.v1.Store 27-30 | service Store",
			"method acme.store.v1.Store.GetOrder 29-29 | rpc GetOrder(GetOrderRequest) returns (Order)",
		},
		refs: []string{
			"Item - type @acme.store.v1.Order.items",
			"Timestamp protobuf type @acme.store.v1.Order.created",
			"Money - type @acme.store.v1.Order.totals",
			"GetOrderRequest - type @acme.store.v1.Store.GetOrder",
			"Order - type @acme.store.v1.Store.GetOrder",
		},
		noRefs:  []string{"string", "int32"},
		imports: []string{"google/protobuf/timestamp.proto", "api/common.proto"},
		docs: map[string]string{"acme.store.v1.Order": "An Order is what a customer bought.",
			"acme.store.v1.Order.Item": "Item is one line of an order.", "acme.store.v1.Store.GetOrder": "GetOrder returns one order."},
	},
	{
		name:  "protobuf-broken",
		path:  "bad.proto",
		src:   "syntax = \"proto3\";\nmessage A {\n  string = ;\n}\nmessage B {}\n",
		defs:  []string{"struct B 5-5"},
		diags: true,
	},
}
