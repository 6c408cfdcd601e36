#!/usr/bin/perl
# dh $@ --with hugetext (or Build-Depends: dh-sequence-hugetext): run
# dh_hugetext after dh_strip, once the files are as they will ship.
use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

insert_after('dh_strip', 'dh_hugetext');

1;
