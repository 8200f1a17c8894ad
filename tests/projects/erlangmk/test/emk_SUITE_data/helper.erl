%% Data of a Common Test suite: erlang.mk compiles test/*.erl only.
-module(helper
