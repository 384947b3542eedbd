"""Tools as an application declares them: arguments, approval, authorization."""
