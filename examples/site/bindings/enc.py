#!/usr/bin/env python3
"""A small external node classifier, as Puppet's exec node terminus runs it: `enc.py NODE`
prints the node's classes, top-scope parameters and environment as ENC YAML."""
import sys

node = sys.argv[1] if len(sys.argv) > 1 else ''
roles = {'web01.example.com': 'web', 'web02.example.com': 'web', 'db01.example.com': 'db'}
role = roles.get(node)
racks = {'web01.example.com': 'ams1-r1', 'web02.example.com': 'ams1-r2', 'db01.example.com': 'ams1-r3'}

print('---')
print('classes:')
if role:
    print(f'  role::{role}:')
else:
    print('  role::base:')
if role == 'web':
    # Class parameters from the ENC become `bind parameters Class[...]` (enc:/parameters).
    print('  profile::nginx:')
    print('    worker_processes: 6')
print('parameters:')
print(f"  enc_rack: {racks.get(node, 'unknown')}")
print('environment: production')
