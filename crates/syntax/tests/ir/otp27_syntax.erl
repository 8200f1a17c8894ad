-module(otp27_syntax).
-moduledoc """
  Module docs, verbatim: \n stays two characters.
  """.
-export([run/1, sigils/0, docs/0]).

-doc """
Runs without a -feature(maybe_expr, enable) attribute, as OTP 27+ allows.
""".
-doc #{since => ~"28.0"}.
run(X) ->
    maybe
        {ok, A} ?= f(X),
        {ok, B} ?= f(A),
        B
    else
        {error, _} = E -> E
    end.

-doc false.
sigils() ->
    {~B"a\nb", ~S<c\d>, ~s{e\tf}, ~b/g\x41/, ~|h|, ~'i', ~`j`, ~#k#,
     ~"""
       verbatim \n
       """,
     ~b"""
       escaped \x41
       """,
     """"
     four quotes: """ inside
     """"}.

-doc {file, "docs.md"}.
docs() -> {2#0.1, 16#ff.8#e-1}.

f(X) when is_integer(X) -> {ok, X + 1};
f(_) -> {error, badarg}.
