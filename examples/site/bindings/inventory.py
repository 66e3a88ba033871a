#!/usr/bin/env python3
"""An external bindings provider for the `inventory:` scheme (see providers.yaml).

modelc runs `inventory.py URI` with the request as JSON on stdin ({uri, node, environment,
facts}) and reads a Bindings model (EMF-JSON) from stdout. This one answers
`inventory:/owners` from a table standing in for an inventory system."""
import json
import sys

request = json.load(sys.stdin)
uri = sys.argv[1]
if uri != 'inventory:/owners':
    sys.exit(f'inventory: unknown URI {uri}')

OWNERS = {'web01.example.com': 'team-web', 'web02.example.com': 'team-web', 'db01.example.com': 'team-data'}
NS = 'http://modelc.dev/bindings/1.0#//'
here = {'$type': NS + 'SourceLocation', 'file': 'inventory:/owners'}


def binding(name, value, type_=None, multibind_id=None):
    b = {'$type': NS + 'Binding', 'location': here, 'producer': {'$type': NS + 'ConstantProducerDescriptor', 'value': value}}
    if name is not None:
        b['name'] = name
    if type_:
        b['type'] = type_
    if multibind_id:
        b['multibindId'] = multibind_id
    return b


node = request['node']
bindings = [binding('site::owner', OWNERS.get(node, 'unassigned'), 'String')]
if node in OWNERS:
    # The owning team's on-call admin joins the site's admins on its nodes.
    bindings.append(binding(None, 'oncall-' + OWNERS[node], multibind_id='site::admins'))

print(json.dumps({
    '$type': NS + 'NamedBindings',
    'name': 'inventory::owners',
    'location': here,
    'bindings': [{
        '$type': NS + 'CategorizedBindings',
        'location': here,
        'predicates': [{'$type': NS + 'Category', 'categorization': 'node', 'value': node}],
        'bindings': bindings,
    }],
}, indent=2))
