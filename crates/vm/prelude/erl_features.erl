%% racewit prelude: erl_features as an OTP 25 node started with no
%% `-enable-feature` flag sees it (no experimental feature enabled, so no
%% extra keyword). OTP's module keeps this in persistent_term, which
%% would show up among the program's own persistent terms.
-module(erl_features).
-export([keywords/0, enabled/0, used/1, all/0, configurable/0, info/1]).

keywords() -> [].
enabled() -> [].
used(_) -> [].
all() -> [maybe_expr].
configurable() -> [maybe_expr].
info(maybe_expr) ->
    #{description => "Implementation of the maybe expression proposed in EEP49 -- Value based error handling.",
      short => "Value based error handling (EEP49)", status => experimental,
      experimental => 25, keywords => ['maybe', 'else'], type => extension};
info(Feature) -> erlang:error(invalid_feature, [Feature]).
