-module(attributes).
-moduledoc """
A module with every kind of attribute.
""".
-behaviour(gen_server).
-behavior(supervisor).
-vsn("1.0").
-author(someone).
-compile([export_all, nowarn_export_all]).
-dialyzer({nowarn_function, f/0}).
-custom({a, [1, 2], #{k => v}, fun f/0, -3}).
-export_type([t/0]).
-type t() :: {ok, term()} | error.
-opaque o() :: #{atom() => [t()]}.
-spec f() -> t().
-callback init(Args :: term()) -> {ok, State :: term()}.
-record(r, {a = 1 :: integer(), b :: fun((term()) -> ok) | undefined, c = <<>> :: <<_:_*8>>}).

-doc "Documented.".
f() -> #r{}.
g(X) -> X.
