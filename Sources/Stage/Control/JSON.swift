// Every module that speaks to the stage speaks its JSON: the one value of the rig.
@_exported import JSON
