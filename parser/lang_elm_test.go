package parser

func init() { parseCases = append(parseCases, elmCases...) }

var elmCases = []parseCase{
	{
		name: "elm",
		path: "src/Page/Home.elm",
		src: `port module Page.Home exposing (Model, Msg, update, view)

{-| The home page: the feed of articles.
-}

import Api.Endpoint as Endpoint exposing (Endpoint)
import Html exposing (..)
import Article.Feed


{-| What the page shows.
-}
type alias Model =
    { feed : Article.Feed.Model
    , tag : String
    }


-- Messages from the view.
type Msg
    = ClickedTag String
    | GotFeed (List String)


{-| Handles a message and returns the next model.
-}
update : Msg -> Model -> ( Model, Cmd Msg )
update msg model =
    case msg of
        ClickedTag tag ->
            ( { model | tag = tag }, Endpoint.request tag |> fetchFeed )

        GotFeed _ ->
            ( model, Cmd.none )


fetchFeed : String -> Cmd Msg
fetchFeed tag =
    Api.get (Endpoint.feed tag) "feed"


port storeCache : String -> Cmd msg
`,
		defs: []string{
			"module Page.Home 1-1 | port module Page.Home exposing (Model, Msg, update, view)",
			"type Model 13-16 | type alias Model =",
			"type Msg 20-22 | type Msg",
			"func update 28-34 | update msg model =",
			"func fetchFeed 38-39 | fetchFeed tag =",
			"func storeCache 42-42 | port storeCache : String -> Cmd msg",
		},
		docs: map[string]string{
			"Page.Home": "The home page: the feed of articles.",
			"Model":     "What the page shows.",
			"Msg":       "Messages from the view.",
			"update":    "Handles a message and returns the next model.",
		},
		refs: []string{
			"request Endpoint call @update",
			"fetchFeed - call @update",
			"get Api call @fetchFeed",
			"Msg - type @-",
		},
		noRefs:  []string{"String", "Cmd"},
		imports: []string{"Api.Endpoint as Endpoint", "Html", "Article.Feed"},
	},
	{
		name:  "elm-broken",
		path:  "Broken.elm",
		src:   "module Broken exposing (..)\n\nok : Int\nok = 1\n\nbad x =\n    (x +\n",
		defs:  []string{"module Broken 1-1", "func ok 4-4"},
		diags: true,
	},
}
